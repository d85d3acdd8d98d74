import {
  type Account,
  type Chain,
  createClient,
  type Hex,
  http,
  type Transport,
  type WalletClient,
} from "viem";
import { sendTransaction, writeContract } from "viem/actions";
import { chainUnavailable } from "../kernel/chain/failure";
import type { LegChain } from "../kernel/chain/leg-chain";
import { viemChainOf } from "../kernel/chain/viem-chain";
import { ProviderFailure } from "../kernel/provider-failure";
import { oneOperatorTransactionAtATime } from "./operator-queue";

/** The two wallet actions the operator uses: `createWalletClient` would bundle all of viem's. */
export type OperatorWallet = Pick<
  WalletClient<Transport, Chain, Account>,
  "writeContract" | "sendTransaction"
>;

/** Automine answers within milliseconds; viem's default 4 s receipt polling would dominate. */
const RECEIPT_POLLING_MS = 20;
const RECEIPT_TIMEOUT_MS = 15_000;

/** The sandbox operator signing on one chain (locally: the chain never holds the key). */
export function operatorWallet(chain: LegChain, operator: Account): OperatorWallet {
  // What createWalletClient makes (its key, name and type), with these two actions bound as its own are.
  const client = createClient({
    account: operator,
    chain: viemChainOf(chain),
    transport: http(chain.rpcUrl, { retryCount: 0, timeout: RECEIPT_TIMEOUT_MS }),
    key: "wallet",
    name: "Wallet Client",
    type: "walletClient",
  });
  return client.extend((base) => ({
    writeContract: (args) => writeContract(base, args),
    sendTransaction: (args) => sendTransaction(base, args),
  })) as OperatorWallet;
}

/**
 * Sends an operator transaction unless `done` already holds, and makes sure it holds afterwards. The
 * contracts refuse a second mint for the same burn or route, and `done` is read again inside the
 * operator's queue and after any failure, so callers may retry or race: the effect happens once.
 */
export async function sendUnlessDone(input: {
  provider: string;
  what: string;
  chain: LegChain;
  wallet: OperatorWallet;
  done: () => Promise<boolean>;
  send: (wallet: OperatorWallet) => Promise<Hex>;
}): Promise<void> {
  const { provider, what, chain, wallet, done, send } = input;
  await oneOperatorTransactionAtATime(chain.rpcUrl, async () => {
    if (await done()) return;
    let failure: unknown;
    try {
      const hash = await send(wallet);
      const receipt = await chain.client.waitForTransactionReceipt({
        hash,
        pollingInterval: RECEIPT_POLLING_MS,
        timeout: RECEIPT_TIMEOUT_MS,
      });
      if (receipt.status === "success") return;
      failure = new ProviderFailure("unavailable", provider, `${what}: transaction ${hash} reverted`);
    } catch (error) {
      failure = error;
    }
    // Someone else's transaction may have done it first; then ours had nothing left to do.
    if (await done()) return;
    throw chainUnavailable(provider, failure);
  });
}
