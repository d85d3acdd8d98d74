import { index, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { integrations } from "./integrations";
import { organizations } from "./organizations";

/**
 * The outbox: one row per notification-worthy change, written in the same transaction as the
 * change, so an event exists exactly when its change committed. `data` is the resource as its read
 * endpoint answered at that moment. Ids sort by creation time (lib/kernel/ids.ts).
 */
export const webhookEvents = pgTable(
  "webhook_events",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    /** The integration whose resource changed: its webhook endpoint is sent the event. */
    integrationId: text("integration_id")
      .notNull()
      .references(() => integrations.id),
    type: text("type").notNull(),
    /** The id of the resource the event is about (an order's id). */
    subjectId: text("subject_id").notNull(),
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (table) => [
    index("webhook_events_organization_idx").on(table.organizationId, table.id),
    index("webhook_events_subject_idx").on(table.subjectId, table.id),
  ],
);
