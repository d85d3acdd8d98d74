import { index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * One row per job message the service has run to completion. QStash delivers at least once and
 * retries reuse the message id, so a finished message id is answered without running it again.
 */
export const jobDeliveries = pgTable(
  "job_deliveries",
  {
    messageId: text("message_id").primaryKey(),
    kind: text("kind").notNull(),
    attempts: integer("attempts").notNull().default(1),
    completedAt: timestamp("completed_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (table) => [index("job_deliveries_completed_at_idx").on(table.completedAt)],
);
