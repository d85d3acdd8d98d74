import { sql } from "drizzle-orm";
import { index, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

/**
 * The operator's deny list: addresses the service deals with in no way, beside the sanctions oracle
 * (docs/compliance.md). A row is never deleted: lifting a listing stamps `removed*`, so the table is
 * the list's whole history (who listed or lifted, when, from where, and why).
 */
export const deniedAddresses = pgTable(
  "denied_addresses",
  {
    id: text("id").primaryKey(),
    /** Lower-cased 0x address. */
    address: text("address").notNull(),
    reason: text("reason").notNull(),
    /** Who listed it: `operator` for the admin API. */
    addedBy: text("added_by").notNull(),
    addedFromIp: text("added_from_ip"),
    addedAt: timestamp("added_at", { withTimezone: true, mode: "date" }).notNull(),
    removedAt: timestamp("removed_at", { withTimezone: true, mode: "date" }),
    removedBy: text("removed_by"),
    removedFromIp: text("removed_from_ip"),
    removalReason: text("removal_reason"),
  },
  (table) => [
    /** One active listing per address. */
    uniqueIndex("denied_addresses_active_idx").on(table.address).where(sql`${table.removedAt} is null`),
    index("denied_addresses_added_idx").on(table.addedAt, table.id),
  ],
);
