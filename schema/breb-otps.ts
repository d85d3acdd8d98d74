import { index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { integrations } from "./integrations";
import { organizations } from "./organizations";

/**
 * One-time codes that prove a user's email, per integration. The code is never stored: only its
 * HMAC under OTP_HASH_KEY, bound to the row's id. A newer code for the same email and address
 * supersedes the older ones; the rows stay, so sends can be counted per hour.
 */
export const brebOtps = pgTable(
  "breb_otps",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    integrationId: text("integration_id")
      .notNull()
      .references(() => integrations.id),
    /** Lower-cased. */
    email: text("email").notNull(),
    /** EIP-55 checksummed, as the partner sent it. */
    userAddress: text("user_address").notNull(),
    codeHash: text("code_hash").notNull(),
    /** Verify attempts made with this code, right or wrong. */
    attempts: integer("attempts").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
    verifiedAt: timestamp("verified_at", { withTimezone: true, mode: "date" }),
    supersededAt: timestamp("superseded_at", { withTimezone: true, mode: "date" }),
  },
  (table) => [index("breb_otps_integration_email_idx").on(table.integrationId, table.email, table.createdAt)],
);
