import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import type { BurnPlan } from "../lib/settlement/burns/plan";
import { FUNDS_STATUSES, HEALTHS, ORDER_STATUSES } from "../lib/settlement/lifecycle";
import { integrations } from "./integrations";
import { organizations } from "./organizations";
import { settlementQuotes } from "./settlement-quotes";

/** How the user burns: on which chain, and the signed plan once the organization's burn plan is on. */
export interface OrderExecution {
  chain: string;
  chainId: number;
  estimatedUserConfirmations: number;
  mode: "pending_burn_plan" | "signed_burn_plan";
  burnPlan?: BurnPlan;
}

/**
 * A settlement order. One per quote; one per idempotency key within an organization. The body of
 * the creation response is kept so that a retry under the same key gets the same bytes back.
 */
export const settlementOrders = pgTable(
  "settlement_orders",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    integrationId: text("integration_id")
      .notNull()
      .references(() => integrations.id),
    quoteId: text("quote_id")
      .notNull()
      .references(() => settlementQuotes.id),
    idempotencyKey: text("idempotency_key").notNull(),
    reference: text("reference"),
    status: text("status", { enum: ORDER_STATUSES }).notNull(),
    health: text("health", { enum: HEALTHS }).notNull(),
    fundsStatus: text("funds_status", { enum: FUNDS_STATUSES }).notNull(),
    execution: jsonb("execution").$type<OrderExecution>().notNull(),
    /** The JSON text of the creation answer, so a replay is the same bytes (jsonb would reorder keys). */
    creationResponse: text("creation_response").notNull(),
    burnTxHash: text("burn_tx_hash"),
    /**
     * The order's summary's fields that never change (lib/settlement/views/order-summary.ts: the
     * quote's, the chain it burns on, its reference and creation), as a JSON object's text written
     * with the order: a list then reads its own rows only, without joining the quotes or formatting
     * their amounts again.
     */
    summaryFacts: text("summary_facts").notNull(),
    /**
     * The order's commitment (orderCommitment), as its burn's hook data carries it: how a mint no
     * order claimed is told from one an order not attested yet may still claim (docs/settlement.md,
     * "Unclaimed mints"). Null on orders made before it was kept.
     */
    commitment: text("commitment"),
    /**
     * The settlement account of the pool that receives this order's mint and sends its legs (its
     * burn plan names it). Null on orders made before the pool: the first account's.
     */
    settlementAccount: text("settlement_account"),
    /**
     * Counts the order's moves: the version a move compares and sets, since a status pair can come
     * back (a refunded route or way back) and a stale job must not move the order from it again.
     */
    version: integer("version").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (table) => [
    uniqueIndex("settlement_orders_quote_id_idx").on(table.quoteId),
    uniqueIndex("settlement_orders_idempotency_idx").on(table.organizationId, table.idempotencyKey),
    uniqueIndex("settlement_orders_burn_tx_hash_idx").on(table.burnTxHash),
    index("settlement_orders_commitment_idx").on(table.commitment),
    index("settlement_orders_organization_id_idx").on(table.organizationId, table.createdAt),
    // The order list's keyset (ids sort by creation): a page reads its own rows in order, not every
    // order of the organization to sort them (docs/settlement.md).
    index("settlement_orders_page_idx").on(table.organizationId, table.id),
  ],
);
