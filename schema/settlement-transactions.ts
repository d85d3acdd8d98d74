import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { settlementOrders } from "./settlement-orders";

/** Statuses of a signed version that may still be mined (the account's queue waits on them). */
/** A recorded transaction's life: signed, sent, replaced at its nonce, then mined or set aside. */
export const TRANSACTION_STATUSES = [
  "signed",
  "sent",
  "replaced",
  "success",
  "reverted",
  "dropped",
  "orphaned",
] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];
export const UNMINED_TRANSACTION_STATUSES = [
  "signed",
  "sent",
  "replaced",
] as const satisfies readonly TransactionStatus[];

/**
 * Every transaction the settlement account signs, recorded before it is broadcast. A retried or
 * duplicated job finds the record and watches that transaction instead of sending another, so no
 * leg is ever paid twice. A payment may have several signed versions at one nonce (a fee
 * replacement): all but the live one are `replaced` (still watched) or `dropped` (proven never
 * mined). Account-level transactions (a standing allowance) belong to no order.
 */
export const settlementTransactions = pgTable(
  "settlement_transactions",
  {
    id: text("id").primaryKey(),
    orderId: text("order_id").references(() => settlementOrders.id),
    purpose: text("purpose").notNull(),
    chainId: integer("chain_id").notNull(),
    fromAddress: text("from_address").notNull(),
    nonce: integer("nonce").notNull(),
    hash: text("hash").notNull(),
    /** The signed transaction, so a lost broadcast is repeated byte for byte. */
    raw: text("raw").notNull(),
    /** The unsigned fields, so a replacement signs the same payment at the same nonce. */
    request: jsonb("request").$type<RecordedRequest>(),
    /**
     * signed → sent → success | reverted; or replaced (a later version at its nonce) | dropped (its
     * nonce went to another transaction) | orphaned (the local chain it was sent on was reset)
     */
    status: text("status", { enum: TRANSACTION_STATUSES }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (table) => [
    uniqueIndex("settlement_transactions_live_purpose_idx")
      .on(table.orderId, table.purpose)
      .where(sql`status not in ('replaced', 'dropped', 'orphaned')`),
    uniqueIndex("settlement_transactions_live_nonce_idx")
      .on(table.chainId, table.fromAddress, table.nonce)
      .where(sql`status not in ('replaced', 'dropped', 'orphaned')`),
    // A reset local chain may see the very same signed bytes again (same nonce, fees and payment).
    uniqueIndex("settlement_transactions_hash_idx").on(table.hash).where(sql`status <> 'orphaned'`),
    // A payment of no order (an unclaimed mint's return) is one per purpose, as an order's is.
    uniqueIndex("settlement_transactions_live_unowned_purpose_idx")
      .on(table.purpose)
      .where(
        sql`order_id is null and purpose <> 'allowance' and status not in ('replaced', 'dropped', 'orphaned')`,
      ),
    index("settlement_transactions_order_idx").on(table.orderId),
    index("settlement_transactions_account_idx").on(table.chainId, table.fromAddress, table.status),
  ],
);

export interface RecordedRequest {
  to: `0x${string}`;
  data: `0x${string}`;
  value: string;
  gas: string;
  maxFeePerGas: string;
  maxPriorityFeePerGas: string;
  /** What the payment spends of an allowance of the account, so payments in flight are counted. */
  allowance?: { token: `0x${string}`; spender: `0x${string}`; amount: string };
  /** Payments naming the same key are never in flight together (a Mento pool's swaps). */
  serialWith?: string;
  /** When the payment's calldata stops being good (an aggregator's quote), as ISO text. */
  validUntil?: string;
  /**
   * This version cancels a stale one at its nonce (a transfer of nothing to the account itself):
   * mined, it makes nothing; the payment is quoted and signed again at a fresh nonce.
   */
  cancels?: true;
}
