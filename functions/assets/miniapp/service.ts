import { type BrebMiniapp, brebMiniapp, CopmApiError } from "@copm/integrations-sdk";
import type { Hex } from "viem";
import type { Language } from "../../../lib/kernel/errors/error-body";
import type { State } from "./state";
import { Refusal } from "./steps";
import type { Say } from "./text";
import type { Wallet } from "./wallet";

/** One call to the service, answering its data. */
type Call = <Data>(operation: () => Promise<{ data: Data }>) => Promise<Data>;

/** The service through the SDK's miniapp client, with the wallet's session. */
export interface Service {
  service: BrebMiniapp;
  /**
   * One call to the service; a wallet session that ran out (WALLET_SESSION_REQUIRED) is renewed by
   * asking the wallet to sign in again, once, and the call made again.
   */
  call: Call;
  /**
   * Sign-In with Ethereum: the service's EIP-4361 message, signed by the wallet (personal_sign),
   * opens the session every call about this address needs; it moves no funds.
   */
  signIn(): Promise<void>;
}

export function serviceOf(options: { lang: Language; state: State; wallet: Wallet; say: Say }): Service {
  const { state, wallet, say } = options;
  const service = brebMiniapp({
    baseUrl: location.origin,
    language: options.lang,
    walletSession: () => state.walletSession || undefined,
  });

  const call: Call = async (operation) => {
    try {
      return (await operation()).data;
    } catch (error) {
      if (!(error instanceof CopmApiError) || error.code !== "WALLET_SESSION_REQUIRED" || !state.address)
        throw error;
      await signIn();
      return (await operation()).data;
    }
  };

  async function signIn() {
    const address = state.address;
    if (!address) throw new Refusal(say("connectFirst"));
    const { data: challenge } = await service.createBrebWalletChallenge({
      // The service names itself in the message: without a key it takes no other domain or URI.
      body: { userAddress: address },
    });
    const utf8 = new TextEncoder().encode(challenge.message);
    const data: Hex = `0x${Array.from(utf8, (byte) => byte.toString(16).padStart(2, "0")).join("")}`;
    const signature = await wallet.request({ method: "personal_sign", params: [data, address] });
    const { data: session } = await service.openBrebWalletSession({
      body: { message: challenge.message, signature },
    });
    state.walletSession = session.walletSession;
  }

  return { service, call, signIn };
}
