import { sql } from "drizzle-orm";
import { bigint, check, index, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { MEMBER_ROLES } from "../lib/tenancy/roles";
import { organizations } from "./organizations";

/**
 * A person who may sign in to the partner dashboard for an organization, known by email. Revoking
 * keeps the row (who had access, and until when); the same email may be added again afterwards.
 */
export const organizationMembers = pgTable(
  "organization_members",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    /** Lower-cased: emails are matched case-insensitively. */
    email: text("email").notNull(),
    /** What the member may do in the dashboard (lib/tenancy/roles.ts). */
    role: text("role", { enum: MEMBER_ROLES }).notNull().default("owner"),
    /**
     * The TOTP secret (RFC 6238) sealed with AES-256-GCM and bound to the member's id; set while
     * enrolling, in use once `totpEnabledAt` is set.
     */
    totpSecret: text("totp_secret"),
    totpEnabledAt: timestamp("totp_enabled_at", { withTimezone: true, mode: "date" }),
    /** The last 30-second step a code was accepted for: a code opens one sign-in, never two. */
    totpLastStep: bigint("totp_last_step", { mode: "number" }),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull(),
    revokedAt: timestamp("revoked_at", { withTimezone: true, mode: "date" }),
  },
  (table) => [
    /** One active member per email in an organization; revoked ones do not count. */
    uniqueIndex("organization_members_active_email_idx")
      .on(table.organizationId, table.email)
      .where(sql`${table.revokedAt} is null`),
    index("organization_members_organization_id_idx").on(table.organizationId, table.id),
    check(
      "organization_members_role",
      sql.raw(`role in (${MEMBER_ROLES.map((role) => `'${role}'`).join(", ")})`),
    ),
  ],
);

/**
 * A member's one-time recovery codes for two-factor sign-in: only each code's HMAC is stored, bound
 * to its row; a new set voids the old one (`voidedAt`), a used code opens nothing more.
 */
export const memberRecoveryCodes = pgTable(
  "member_recovery_codes",
  {
    id: text("id").primaryKey(),
    memberId: text("member_id")
      .notNull()
      .references(() => organizationMembers.id),
    codeHash: text("code_hash").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true, mode: "date" }),
    voidedAt: timestamp("voided_at", { withTimezone: true, mode: "date" }),
  },
  (table) => [index("member_recovery_codes_member_idx").on(table.memberId)],
);
