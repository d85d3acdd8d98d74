import { integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * One row per outside party the service polls (Circle's Iris, the aggregator): the calls made in the
 * current budget window, the time the party asked callers to stay away until (a 429), and its last
 * success and last error for the operator's health page. Every job of every order takes from the
 * same row, so the budget is the service's, not one order's.
 */
export const vendorCalls = pgTable("vendor_calls", {
  vendor: text("vendor").primaryKey(),
  windowStart: timestamp("window_start", { withTimezone: true, mode: "date" }).notNull(),
  windowCount: integer("window_count").notNull(),
  blockedUntil: timestamp("blocked_until", { withTimezone: true, mode: "date" }),
  lastSuccessAt: timestamp("last_success_at", { withTimezone: true, mode: "date" }),
  lastErrorAt: timestamp("last_error_at", { withTimezone: true, mode: "date" }),
  /** The failure's message, as the adapter wrote it (adapters never put a secret in one). */
  lastError: text("last_error"),
});
