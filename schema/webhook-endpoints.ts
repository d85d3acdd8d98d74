import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { integrations } from "./integrations";
import { organizations } from "./organizations";

/** An endpoint is sent events while enabled; the service or the partner disables it. */
export const ENDPOINT_STATUSES = ["enabled", "disabled"] as const;

/**
 * Where an integration's events are sent: one live endpoint per integration (a deleted one is kept,
 * with its deliveries, for the record). Signing secrets are stored only encrypted (lib/webhooks/
 * lib/kernel/sealed-secret.ts); after a rotation each earlier secret keeps signing until its own `until`, so a
 * second rotation inside the overlap never cuts off a secret the receiver may still hold.
 */
export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    integrationId: text("integration_id")
      .notNull()
      .references(() => integrations.id),
    url: text("url").notNull(),
    /** The event types sent; null sends every type. */
    eventTypes: jsonb("event_types").$type<string[]>(),
    secretCiphertext: text("secret_ciphertext").notNull(),
    /** The secret's last four characters, shown masked. */
    secretHint: text("secret_hint").notNull(),
    /** Rotated-out secrets still signing: sealed, each with the ISO instant it stops. */
    previousSecrets: jsonb("previous_secrets")
      .$type<Array<{ ciphertext: string; until: string }>>()
      .notNull()
      .default([]),
    /** `enabled` or `disabled` (by a 410 Gone from the receiver). */
    status: text("status", { enum: ENDPOINT_STATUSES }).notNull(),
    disabledReason: text("disabled_reason"),
    /** Failed attempts since the last successful one. */
    consecutiveFailures: integer("consecutive_failures").notNull().default(0),
    /** Set when a delivery exhausted its attempts; cleared by the next success. */
    flaggedAt: timestamp("flagged_at", { withTimezone: true, mode: "date" }),
    /** While in the future, one job is sending to this endpoint and no other may. */
    leaseUntil: timestamp("lease_until", { withTimezone: true, mode: "date" }),
    /**
     * When the latest wake-up job was scheduled to run: while in the future, no other job is
     * scheduled for a later time, so triggers coalesce and an endpoint never runs many job chains.
     */
    nextWakeAt: timestamp("next_wake_at", { withTimezone: true, mode: "date" }),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull(),
    deletedAt: timestamp("deleted_at", { withTimezone: true, mode: "date" }),
  },
  (table) => [
    uniqueIndex("webhook_endpoints_live_integration_idx")
      .on(table.integrationId)
      .where(sql`${table.deletedAt} is null`),
    index("webhook_endpoints_organization_idx").on(table.organizationId),
  ],
);
