import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { integrations } from "./integrations";
import { units } from "./money-column";
import { organizations } from "./organizations";

/** A swap is prepared, then confirmed by its transaction. */
export const SWAP_STATUSES = ["prepared", "confirmed"] as const;

/**
 * A swap the service prepared for a wallet, and, once a transaction hash verified on chain, the swap
 * it became: a hash confirms one swap. Only confirmed rows are swaps (listed for reconciliation).
 */
export const swapIntents = pgTable(
  "swap_intents",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    integrationId: text("integration_id")
      .notNull()
      .references(() => integrations.id),
    wallet: text("wallet").notNull(),
    tokenIn: text("token_in").notNull(),
    tokenOut: text("token_out").notNull(),
    amountIn: units("amount_in").notNull(),
    expectedAmountOut: units("expected_amount_out").notNull(),
    minAmountOut: units("min_amount_out").notNull(),
    slippageBps: integer("slippage_bps").notNull(),
    /** The router steps, as the calldata carries them. */
    path: jsonb("path").$type<SwapPathStep[]>().notNull(),
    chainId: integer("chain_id").notNull(),
    target: text("target").notNull(),
    calldata: text("calldata").notNull(),
    status: text("status", { enum: SWAP_STATUSES }).notNull(),
    txHash: text("tx_hash"),
    /** What the transaction's logs show was swapped. */
    amountInSwapped: units("amount_in_swapped"),
    amountOutReceived: units("amount_out_received"),
    blockNumber: units("block_number"),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true, mode: "date" }),
  },
  (table) => [
    uniqueIndex("swap_intents_tx_hash_idx").on(table.txHash).where(sql`${table.txHash} is not null`),
    index("swap_intents_confirmed_idx")
      .on(table.integrationId, table.confirmedAt, table.id)
      .where(sql`${table.status} = 'confirmed'`),
    // Statements and the reconciliation read an organization's swaps confirmed in a window.
    index("swap_intents_organization_confirmed_idx")
      .on(table.organizationId, table.confirmedAt)
      .where(sql`${table.status} = 'confirmed'`),
  ],
);

export interface SwapPathStep {
  exchangeProvider: `0x${string}`;
  exchangeId: `0x${string}`;
  assetIn: `0x${string}`;
  assetOut: `0x${string}`;
}
