import { integer, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { webhookDeliveries } from "./webhook-deliveries";

/**
 * Every attempt of a delivery: when, what the receiver answered (status code, a bounded excerpt of
 * its body) or why there was no answer, and how long it took. A delivery's attempt numbers are
 * unique, so an attempt is recorded once.
 */
export const webhookAttempts = pgTable(
  "webhook_attempts",
  {
    id: text("id").primaryKey(),
    deliveryId: text("delivery_id")
      .notNull()
      .references(() => webhookDeliveries.id),
    number: integer("number").notNull(),
    attemptedAt: timestamp("attempted_at", { withTimezone: true, mode: "date" }).notNull(),
    statusCode: integer("status_code"),
    durationMs: integer("duration_ms").notNull(),
    responseExcerpt: text("response_excerpt"),
    /** Why no status code: a timeout, a refused connection, a refused URL. */
    error: text("error"),
  },
  (table) => [uniqueIndex("webhook_attempts_delivery_number_idx").on(table.deliveryId, table.number)],
);
