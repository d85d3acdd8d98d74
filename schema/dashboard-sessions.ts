import { index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { organizationMembers } from "./organization-members";
import { organizations } from "./organizations";

/**
 * A one-time code emailed to a would-be dashboard member, good only in the browser that asked for
 * it. Only its HMAC is stored, bound to the row's id; a newer code for the same email and browser
 * supersedes the older ones, whose rows stay so sends and wrong tries can be counted.
 */
export const dashboardSignInCodes = pgTable(
  "dashboard_sign_in_codes",
  {
    id: text("id").primaryKey(),
    /** Lower-cased. */
    email: text("email").notNull(),
    /** SHA-256 of the asking browser's CSRF seed cookie: another browser's send never touches this code. */
    browserHash: text("browser_hash").notNull(),
    codeHash: text("code_hash").notNull(),
    /** Tries made with this code, right or wrong. */
    attempts: integer("attempts").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
    /** Right code given; an email in several organizations still has to pick one. */
    verifiedAt: timestamp("verified_at", { withTimezone: true, mode: "date" }),
    /** A session was made from it: it opens nothing more. */
    usedAt: timestamp("used_at", { withTimezone: true, mode: "date" }),
    supersededAt: timestamp("superseded_at", { withTimezone: true, mode: "date" }),
  },
  (table) => [index("dashboard_sign_in_codes_email_idx").on(table.email, table.createdAt)],
);

/**
 * A signed-in dashboard member. The cookie carries the id and a random token; only the token's
 * SHA-256 is stored. A session is bound to one membership (so to one organization); signing out,
 * expiry and revoking the member all end it.
 */
export const dashboardSessions = pgTable(
  "dashboard_sessions",
  {
    id: text("id").primaryKey(),
    tokenHash: text("token_hash").notNull(),
    memberId: text("member_id")
      .notNull()
      .references(() => organizationMembers.id),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
    revokedAt: timestamp("revoked_at", { withTimezone: true, mode: "date" }),
    /**
     * When the member gave their second factor in this session; until then a member who has one
     * reaches only the second-factor page.
     */
    twoFactorAt: timestamp("two_factor_at", { withTimezone: true, mode: "date" }),
    /** Wrong second-factor codes given in this session (five end it; ten a day lock the member). */
    twoFactorFailures: integer("two_factor_failures").notNull().default(0),
  },
  (table) => [index("dashboard_sessions_member_idx").on(table.memberId)],
);
