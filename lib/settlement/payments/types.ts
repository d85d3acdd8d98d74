import type { Account, Hex } from "viem";
import type { settlementTransactions } from "../../../schema";
import type { ConfiguredChain } from "../../kernel/chain/registry";
import type { ServiceContext } from "../../kernel/context";
import type { Database } from "../../kernel/db/database";

export type TransactionOutcome =
  | { state: "success" | "reverted"; hash: Hex; purpose: string }
  | { state: "pending"; reason: string }
  /** The chain says the transaction would revert now (its estimate fails): nothing was signed. */
  | { state: "refused"; purpose: string; reason: string };

/** Where a test may stop a job dead, to prove that a retry neither loses nor repeats a payment. */
export type FaultPoint = "after-record" | "after-broadcast" | "after-confirm";
export interface FaultInjector {
  at(point: FaultPoint, purpose: string): void;
}

export type PaymentContext = ServiceContext & { faults?: FaultInjector };
export type TransactionRow = typeof settlementTransactions.$inferSelect;

/** The purpose of the settlement account's own approvals: they belong to the account, not an order. */
export const ALLOWANCE_PURPOSE = "allowance";

/** What a payment sends, decided only when it is to be signed (never again once recorded). */
export interface PaymentRequest {
  to: Hex;
  data: Hex;
  value?: bigint;
  /** What the payment spends through an ERC-20 allowance of the settlement account, if anything. */
  allowance?: { token: Hex; spender: Hex; amount: bigint };
  /**
   * Payments naming the same key are never in flight together, so each is priced on the state the
   * one before left (a Mento pool: its trading limits move with every swap).
   */
  serialWith?: string;
  /**
   * When the calldata stops being good (an aggregator's quote expires): past it the request is not
   * signed but priced again, and a version still unmined is cancelled rather than re-signed as is.
   */
  validUntil?: Date;
}

export interface Payment {
  /** The order it is for; null for a payment of no order (an unclaimed mint's return), one per purpose. */
  orderId: string | null;
  purpose: string;
  chain: ConfiguredChain;
  account: Account;
  /**
   * Builds the request (pricing it afresh if need be), or says why it must not be sent now: `refused`
   * when the operator should look, `notYet` when the order waits for the market as it should (the
   * caller has said why on its timeline). Called only while the payment has no live recorded version:
   * a recorded payment is watched, not priced.
   */
  prepare(): Promise<PaymentRequest | { refused: string } | { notYet: string }>;
  /**
   * Checked under the account's lock just before signing, in the same transaction that records the
   * payment: true when the order no longer wants it (an operator redirected the order meanwhile).
   * Nothing is signed then, and the outcome is pending: the order's next look takes the new way.
   */
  withdrawn?(tx: Database): Promise<boolean>;
}
