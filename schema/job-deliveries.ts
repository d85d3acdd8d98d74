import { index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * One row per signed job delivery the service has started: claimed before the job runs, so the
 * same signed request delivered twice (a replay, a duplicate in flight) runs once. The key is the
 * delivery's `jti`, a claim QStash signs; the message id header is unsigned and kept only as
 * information. QStash signs every attempt afresh, so its retry of a failed run is a new delivery.
 */
export const jobDeliveries = pgTable(
  "job_deliveries",
  {
    deliveryId: text("delivery_id").primaryKey(),
    messageId: text("message_id"),
    kind: text("kind").notNull(),
    retried: integer("retried").notNull().default(0),
    claimedAt: timestamp("claimed_at", { withTimezone: true, mode: "date" }).notNull(),
    completedAt: timestamp("completed_at", { withTimezone: true, mode: "date" }),
    failedAt: timestamp("failed_at", { withTimezone: true, mode: "date" }),
  },
  (table) => [index("job_deliveries_claimed_at_idx").on(table.claimedAt)],
);
