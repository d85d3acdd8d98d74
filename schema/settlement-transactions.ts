import { index, integer, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { settlementOrders } from "./settlement-orders";

/**
 * Every transaction the settlement account signs, recorded before it is broadcast. A retried or
 * duplicated job finds the record and watches that transaction instead of sending another, so no
 * leg is ever paid twice. One per order and purpose; one per account nonce on a chain.
 */
export const settlementTransactions = pgTable(
  "settlement_transactions",
  {
    id: text("id").primaryKey(),
    orderId: text("order_id")
      .notNull()
      .references(() => settlementOrders.id),
    purpose: text("purpose").notNull(),
    chainId: integer("chain_id").notNull(),
    fromAddress: text("from_address").notNull(),
    nonce: integer("nonce").notNull(),
    hash: text("hash").notNull(),
    /** The signed transaction, so a lost broadcast is repeated byte for byte. */
    raw: text("raw").notNull(),
    /** signed → sent → success | reverted */
    status: text("status").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (table) => [
    uniqueIndex("settlement_transactions_purpose_idx").on(table.orderId, table.purpose),
    uniqueIndex("settlement_transactions_nonce_idx").on(table.chainId, table.fromAddress, table.nonce),
    uniqueIndex("settlement_transactions_hash_idx").on(table.hash),
    index("settlement_transactions_order_idx").on(table.orderId),
  ],
);
