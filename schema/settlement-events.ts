import { sql } from "drizzle-orm";
import { index, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { FUNDS_STATUSES, ORDER_STATUSES } from "../lib/settlement/lifecycle";
import { TIMELINE_KINDS } from "../lib/settlement/timeline";
import { settlementOrders } from "./settlement-orders";

/** The timeline of an order: what happened to it, on which chain, with which transaction. */
export const settlementEvents = pgTable(
  "settlement_events",
  {
    id: text("id").primaryKey(),
    orderId: text("order_id")
      .notNull()
      .references(() => settlementOrders.id),
    kind: text("kind", { enum: TIMELINE_KINDS }).notNull(),
    status: text("status", { enum: ORDER_STATUSES }).notNull(),
    fundsStatus: text("funds_status", { enum: FUNDS_STATUSES }).notNull(),
    chainId: text("chain_id"),
    txHash: text("tx_hash"),
    detail: jsonb("detail").$type<Record<string, unknown>>(),
    at: timestamp("at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (table) => [
    index("settlement_events_order_id_idx").on(table.orderId, table.at),
    // Lookup by hash (docs/ledger.md): every leg's transaction names its order.
    index("settlement_events_tx_hash_idx").on(table.txHash).where(sql`${table.txHash} is not null`),
    // Statements (docs/ledger.md) read what happened in a window of time.
    index("settlement_events_at_idx").on(table.at),
    // A mint is claimed by the order whose attestation names its nonce (docs/settlement.md, "Unclaimed mints").
    index("settlement_events_attested_nonce_idx")
      .on(sql`lower(${table.detail}->>'eventNonce')`)
      .where(sql`${table.kind} = 'ATTESTED'`),
  ],
);
