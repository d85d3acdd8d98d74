import { index, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { AUDIT_ACTIONS, AUDIT_ACTOR_TYPES } from "../lib/audit/actions";
import { organizations } from "./organizations";

/**
 * What changed an organization's keys, members, webhook endpoints or settings: who (a member, the
 * operator, an API key, or the service itself), when, from which address, and the fields before and
 * after, never a secret (docs/tenancy.md, "Audit log"). Never deleted by the service.
 */
export const auditEvents = pgTable(
  "audit_events",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    action: text("action", { enum: AUDIT_ACTIONS }).notNull(),
    actorType: text("actor_type", { enum: AUDIT_ACTOR_TYPES }).notNull(),
    /** The member's id, the key's id, "operator" or "service". */
    actorId: text("actor_id").notNull(),
    /** The client address the runtime vouched for; null for the service's own changes. */
    actorIp: text("actor_ip"),
    targetType: text("target_type").notNull(),
    targetId: text("target_id").notNull(),
    before: jsonb("before").$type<Record<string, unknown>>(),
    after: jsonb("after").$type<Record<string, unknown>>(),
    at: timestamp("at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (table) => [index("audit_events_organization_at_idx").on(table.organizationId, table.at, table.id)],
);
