import { index, integer, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { units } from "./money-column";

/**
 * What the operator did with a mint no order claims: nothing yet (`found`), asked it back to its
 * depositor (`return_requested`), its return burned on the intermediate chain (`returning`), minted
 * to the depositor on its source chain (`returned`).
 */
export const MINT_RETURN_STATES = ["found", "return_requested", "returning", "returned"] as const;
export type MintReturnState = (typeof MINT_RETURN_STATES)[number];

/**
 * Every CCTP mint to the settlement account, as its MessageReceived shows it on the intermediate
 * chain: one per message nonce. An order claims one by its attestation's nonce; a mint no order
 * claims (wrong hook data, an order never created, the second burn of a batch) is listed for the
 * operator and can be returned to its depositor on its source chain (docs/settlement.md,
 * "Unclaimed mints").
 */
export const settlementMints = pgTable(
  "settlement_mints",
  {
    id: text("id").primaryKey(),
    chainId: integer("chain_id").notNull(),
    /** Circle's 32-byte message nonce, lowercase. */
    nonce: text("nonce").notNull(),
    sourceDomain: integer("source_domain").notNull(),
    /** Who burned (the message's messageSender): the return goes back to this address. */
    depositor: text("depositor").notNull(),
    /** The pool's account the mint went to, which returns it. Null on mints found before the pool: the first account's. */
    recipient: text("recipient"),
    hookData: text("hook_data").notNull(),
    /** What the settlement account received: the burned amount less Circle's fee. */
    amount: units("amount").notNull(),
    feeCollected: units("fee_collected").notNull(),
    txHash: text("tx_hash").notNull(),
    /** MessageReceived's index in its transaction. */
    logIndex: integer("log_index").notNull(),
    blockNumber: units("block_number").notNull(),
    mintedAt: timestamp("minted_at", { withTimezone: true, mode: "date" }).notNull(),
    status: text("status", { enum: MINT_RETURN_STATES }).notNull(),
    returnReason: text("return_reason"),
    returnRequestedAt: timestamp("return_requested_at", { withTimezone: true, mode: "date" }),
    returnBurnTxHash: text("return_burn_tx_hash"),
    returnAmount: units("return_amount"),
    returnMaxFee: units("return_max_fee"),
    returnBurnedAt: timestamp("return_burned_at", { withTimezone: true, mode: "date" }),
    returnMintTxHash: text("return_mint_tx_hash"),
    returnedAmount: units("returned_amount"),
    returnFeeCollected: units("return_fee_collected"),
    /** Why the return cannot go on now, for the operator (Circle's fee exceeds the amount, say). */
    attention: text("attention"),
    foundAt: timestamp("found_at", { withTimezone: true, mode: "date" }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (table) => [
    uniqueIndex("settlement_mints_nonce_idx").on(table.chainId, table.nonce),
    index("settlement_mints_status_idx").on(table.status, table.foundAt),
  ],
);

/** How far the search for mints to the settlement account has read each chain: the next block to read. */
export const settlementMintScans = pgTable("settlement_mint_scans", {
  chainId: integer("chain_id").primaryKey(),
  nextBlock: units("next_block").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull(),
});
