import { pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { integrations } from "./integrations";
import { organizations } from "./organizations";

/** Where a user stands with the KYC provider. */
export const KYC_STATUSES = ["not_started", "pending", "approved", "rejected"] as const;

/**
 * A user's identity as one integration knows it: the email proven by code and the KYC status at
 * the provider. Keyed by (integration, user address); another integration's record of the same
 * address is another row.
 */
export const kycRecords = pgTable(
  "kyc_records",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    integrationId: text("integration_id")
      .notNull()
      .references(() => integrations.id),
    userAddress: text("user_address").notNull(),
    /** The email last proven by code, lower-cased. */
    email: text("email").notNull(),
    emailVerifiedAt: timestamp("email_verified_at", { withTimezone: true, mode: "date" }).notNull(),
    /** `pending`, `approved` or `rejected` (a user without a record is `not_started`). */
    status: text("status", { enum: KYC_STATUSES }).notNull(),
    /** The provider's customer id; null when mock mode approved at once. */
    providerCustomerId: text("provider_customer_id"),
    kycLink: text("kyc_link"),
    termsLink: text("terms_link"),
    /** The provider's time of the status held, so an older callback never overwrites a newer one. */
    providerUpdatedAt: timestamp("provider_updated_at", { withTimezone: true, mode: "date" }),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (table) => [
    uniqueIndex("kyc_records_integration_user_idx").on(table.integrationId, table.userAddress),
    uniqueIndex("kyc_records_provider_customer_idx").on(table.providerCustomerId),
  ],
);
