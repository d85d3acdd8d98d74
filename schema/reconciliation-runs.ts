import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { organizations } from "./organizations";

/** A run is open while it reads and compares, then finished with its report. */
export const RECONCILIATION_RUN_STATUSES = ["open", "finished"] as const;

/** The records the ledger keeps receipts of, and the reconciliation checks. */
export const RECORD_TYPES = ["settlement_order", "payout", "swap"] as const;

/** What a receipt leg's check against its chain can find wrong. */
export const DISCREPANCY_PROBLEMS = [
  "transaction_missing",
  "transaction_failed",
  "amount_not_found",
  "chain_unknown",
] as const;

/**
 * A reconciliation: the receipts of the orders, payouts and swaps that completed in
 * (`coversFrom`, `coversTo`] re-read against the chains, in batches of the sweep, a cursor at a time.
 * At most one run is open at once (the partial unique index).
 */
export const reconciliationRuns = pgTable(
  "reconciliation_runs",
  {
    id: text("id").primaryKey(),
    coversFrom: timestamp("covers_from", { withTimezone: true, mode: "date" }).notNull(),
    coversTo: timestamp("covers_to", { withTimezone: true, mode: "date" }).notNull(),
    /** open → finished */
    status: text("status", { enum: RECONCILIATION_RUN_STATUSES }).notNull(),
    /** Where the next batch starts, per record type: the last id checked. */
    cursor: jsonb("cursor")
      .$type<Partial<Record<"settlement_order" | "payout" | "swap", string>>>()
      .notNull(),
    recordsChecked: integer("records_checked").notNull().default(0),
    discrepanciesFound: integer("discrepancies_found").notNull().default(0),
    startedAt: timestamp("started_at", { withTimezone: true, mode: "date" }).notNull(),
    finishedAt: timestamp("finished_at", { withTimezone: true, mode: "date" }),
  },
  (table) => [
    uniqueIndex("reconciliation_runs_one_open_idx").on(table.status).where(sql`${table.status} = 'open'`),
    index("reconciliation_runs_started_idx").on(table.startedAt),
  ],
);

/** A recorded figure a reconciliation found the chain does not show: it flags its record until resolved. */
export const reconciliationDiscrepancies = pgTable(
  "reconciliation_discrepancies",
  {
    id: text("id").primaryKey(),
    runId: text("run_id")
      .notNull()
      .references(() => reconciliationRuns.id),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    recordType: text("record_type", { enum: RECORD_TYPES }).notNull(),
    recordId: text("record_id").notNull(),
    leg: text("leg").notNull(),
    chainId: integer("chain_id").notNull(),
    txHash: text("tx_hash"),
    /** transaction_missing | transaction_failed | amount_not_found | chain_unknown */
    problem: text("problem", { enum: DISCREPANCY_PROBLEMS }).notNull(),
    token: text("token"),
    recorded: text("recorded"),
    foundAt: timestamp("found_at", { withTimezone: true, mode: "date" }).notNull(),
    resolvedAt: timestamp("resolved_at", { withTimezone: true, mode: "date" }),
  },
  (table) => [
    index("reconciliation_discrepancies_open_idx")
      .on(table.organizationId, table.foundAt)
      .where(sql`${table.resolvedAt} is null`),
    index("reconciliation_discrepancies_record_idx").on(table.recordId),
  ],
);
