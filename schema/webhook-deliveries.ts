import { sql } from "drizzle-orm";
import { bigint, index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { organizations } from "./organizations";
import { webhookEndpoints } from "./webhook-endpoints";
import { webhookEvents } from "./webhook-events";

/** A delivery is pending until its endpoint accepts it or its attempts run out. */
export const DELIVERY_STATUSES = ["pending", "delivered", "failed"] as const;

/**
 * One event on its way to one endpoint: `pending` while attempts remain, then `delivered` or
 * `failed`. A replay is a new delivery of the same event. Per endpoint, deliveries are sent in
 * `sequence` order, one at a time: the database assigns it at insert, inside the transaction that
 * made the change, so two changes serialised by a row lock keep their order even when the processes
 * that made them disagree about the time.
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    sequence: bigint("sequence", { mode: "number" }).generatedAlwaysAsIdentity().notNull(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    endpointId: text("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id),
    eventId: text("event_id")
      .notNull()
      .references(() => webhookEvents.id),
    eventType: text("event_type").notNull(),
    /** `event` (sent because the event happened), `replay` or `test`. */
    trigger: text("trigger").notNull(),
    status: text("status", { enum: DELIVERY_STATUSES }).notNull(),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true, mode: "date" }),
    deliveredAt: timestamp("delivered_at", { withTimezone: true, mode: "date" }),
    failedReason: text("failed_reason"),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (table) => [
    index("webhook_deliveries_organization_idx").on(table.organizationId, table.id),
    index("webhook_deliveries_pending_idx")
      .on(table.endpointId, table.sequence)
      .where(sql`${table.status} = 'pending'`),
    index("webhook_deliveries_status_idx").on(table.status, table.id),
  ],
);
