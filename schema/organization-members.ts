import { sql } from "drizzle-orm";
import { index, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
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
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull(),
    revokedAt: timestamp("revoked_at", { withTimezone: true, mode: "date" }),
  },
  (table) => [
    /** One active member per email in an organization; revoked ones do not count. */
    uniqueIndex("organization_members_active_email_idx")
      .on(table.organizationId, table.email)
      .where(sql`${table.revokedAt} is null`),
    index("organization_members_organization_id_idx").on(table.organizationId, table.id),
  ],
);
