import { type Address, type EIP1193Parameters, type EIP1474Methods, getAddress, type Hex } from "viem";
import type {} from "viem/window";
import { sleep } from "./dom";
import { Refusal } from "./steps";
import type { Say } from "./text";

const RECEIPT_POLL_MS = 1000;

/** A request of the injected wallet, typed by viem's EIP-1193 methods. */
type WalletRequest = EIP1193Parameters<EIP1474Methods>;
/** What the wallet answers to a method, as viem types it. */
type WalletAnswer<Method extends WalletRequest["method"]> = Extract<
  EIP1474Methods[number],
  { Method: Method }
>["ReturnType"];

/** The injected wallet (EIP-1193, `window.ethereum`), its errors said as the page's refusals. */
export interface Wallet {
  request<Request extends WalletRequest>(request: Request): Promise<WalletAnswer<Request["method"]>>;
  /** Asks the wallet onto this chain (named in the refusal if it cannot). */
  ensureChain(chainId: number, chainName: string): Promise<void>;
  waitForReceipt(hash: Hex): Promise<NonNullable<WalletAnswer<"eth_getTransactionReceipt">>>;
}

export const hexOf = (value: bigint | number): Hex => `0x${BigInt(value).toString(16)}`;

/** EIP-55: wallets often answer lower-case addresses; the service takes only the checksummed form. */
export const checksummed = (address: string): Address => getAddress(address);

export function injectedWallet(say: Say): Wallet {
  async function request<Request extends WalletRequest>(
    request: Request,
  ): Promise<WalletAnswer<Request["method"]>> {
    const provider = window.ethereum;
    if (!provider || typeof provider.request !== "function") throw new Refusal(say("noWallet"));
    try {
      return (await provider.request(request)) as WalletAnswer<Request["method"]>;
    } catch (error) {
      const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
      if (code === 4001) throw new Refusal(say("walletRejected"), { code: "WALLET_4001" });
      // Wallets' messages can run to many lines of detail: the first says what happened.
      const first = String(message ?? error).split("\n")[0] ?? "";
      throw new Refusal(say("walletError", { message: first }), { walletCode: code });
    }
  }

  async function ensureChain(chainId: number, chainName: string) {
    if (Number.parseInt(await request({ method: "eth_chainId" }), 16) === chainId) return;
    try {
      await request({ method: "wallet_switchEthereumChain", params: [{ chainId: hexOf(chainId) }] });
    } catch (error) {
      if (error instanceof Refusal && error.walletCode === 4902)
        throw new Refusal(say("unknownChain", { chain: chainName, chainId }));
      throw error;
    }
    if (Number.parseInt(await request({ method: "eth_chainId" }), 16) !== chainId) {
      throw new Refusal(say("stillWrongChain", { chain: chainName, chainId }));
    }
  }

  async function waitForReceipt(hash: Hex) {
    for (;;) {
      const receipt = await request({ method: "eth_getTransactionReceipt", params: [hash] });
      if (receipt) return receipt;
      await sleep(RECEIPT_POLL_MS);
    }
  }

  return { request, ensureChain, waitForReceipt };
}
