// The local BRE-B provider's options and handle.

import type { ListenPort } from "../listen-port";
import type { CallbackDeliver } from "../signed-callbacks";

export type Address = `0x${string}`;

/** The chain deposits arrive on and refunds leave from, with the two payout tokens on it. */
export interface LocalBrebChain {
  chainId: number;
  rpcUrl: string;
  tokens: { USDC: Address; COPm: Address };
}

export interface LocalBrebProviderOptions {
  port?: ListenPort;
  /** The Bearer key the API requires; a random one when not given. */
  apiKey?: string;
  /** The Standard Webhooks secret ("whsec_…") callbacks are signed with. */
  callbackSecret: string;
  /** Where callbacks go: by default a POST to callbackUrl (the service's /callbacks/breb); tests pass their own. */
  callbackUrl?: string;
  deliver?: CallbackDeliver;
  chain: LocalBrebChain;
  /** Funds the deposit account with gas at start. */
  operatorKey: Address;
  /** COP per whole token, as decimal strings; default USDC 3912.45, COPm 1. */
  rates?: { USDC?: string; COPm?: string };
  /** How long a payout stays `processing` (and a failed one waits for its refund); default 2000 ms. */
  completeAfterMs?: number;
  /** The provider's clock: when state changes are due, `updatedAt`, and the callbacks' timestamps. */
  now?: () => Date;
  /** Default true: a timer performs the state changes as they fall due. False: only `settle()` does. */
  autoSettle?: boolean;
  /** A JSON file the payouts are kept in, so they survive a restart; in memory only when absent. */
  stateFile?: string;
}

export interface LocalBrebProvider {
  url: string;
  apiKey: string;
  /** Where deposits go, for both tokens. */
  depositAddress: Address;
  /** Performs every state change due by `now()`, and waits for the callbacks sent so far. */
  settle(): Promise<void>;
  close(): Promise<void>;
}
