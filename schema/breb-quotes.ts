import { sql } from "drizzle-orm";
import { integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { integrations } from "./integrations";
import { units } from "./money-column";
import { organizations } from "./organizations";

/** A priced payout, reserved for the organization that asked, until `expiresAt`. */
export const brebQuotes = pgTable("breb_quotes", {
  id: text("id").primaryKey(),
  organizationId: text("organization_id")
    .notNull()
    .references(() => organizations.id),
  integrationId: text("integration_id")
    .notNull()
    .references(() => integrations.id),
  token: text("token").notNull(),
  /** Whole pesos. */
  destinationCop: units("destination_cop").notNull(),
  copPerUnit: text("cop_per_unit").notNull(),
  copPerUsd: text("cop_per_usd").notNull(),
  providerAmount: units("provider_amount").notNull(),
  providerDeveloperFee: units("provider_developer_fee").notNull(),
  serviceFee: units("service_fee").notNull(),
  sourceAmount: units("source_amount").notNull(),
  serviceFeeBps: integer("service_fee_bps").notNull(),
  /** The organization's own fee (docs/payouts.md), in sourceAmount; 0 when it charges none. */
  partnerFee: units("partner_fee").notNull().default(sql`0`),
  partnerFeeBps: integer("partner_fee_bps").notNull().default(0),
  partnerFeeAddress: text("partner_fee_address"),
  createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull(),
  expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
});
