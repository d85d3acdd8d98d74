import type { PayoutCreation, PayoutQuote } from "@copm/integrations-sdk";
import type { Address } from "viem";

/** What the flow has learnt so far, for the page's lifetime. */
export interface State {
  /** The connected wallet, EIP-55 checksummed; empty until the user connects it. */
  address: Address | "";
  /** The wallet's session (Sign-In with Ethereum), sent with every call about the address. */
  walletSession: string;
  email: string;
  quote: PayoutQuote | null;
  creation: PayoutCreation | null;
  /** Hashes of the plan's steps already mined, so a retry never sends one twice. */
  sent: string[];
  /** The Idempotency-Key of each payout body sent, so a retry of the same body is the same creation. */
  idempotency: Map<string, string>;
  kycTimer: number;
  payoutTimer: number;
}

export function newState(): State {
  return {
    address: "",
    walletSession: "",
    email: "",
    quote: null,
    creation: null,
    sent: [],
    idempotency: new Map(),
    kycTimer: 0,
    payoutTimer: 0,
  };
}
