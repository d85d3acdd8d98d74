import { index, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { integrations } from "./integrations";
import { organizations } from "./organizations";

/** Only the SHA-256 of a key and its visible start are stored; the whole key is shown once. */
export const apiKeys = pgTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    integrationId: text("integration_id")
      .notNull()
      .references(() => integrations.id),
    /** Copied from the integration so every tenant check is one indexed lookup. */
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    /** Hex SHA-256 of the whole key. */
    hash: text("hash").notNull(),
    /** The first characters of the key, for people to recognise it in a list. */
    start: text("start").notNull(),
    /** `live` or `test`, as the key's prefix says: a key works only in its own mode. */
    mode: text("mode").notNull(),
    name: text("name"),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull(),
    revokedAt: timestamp("revoked_at", { withTimezone: true, mode: "date" }),
    /** What the key may do (lib/tenancy/scopes.ts); null: every scope. */
    scopes: text("scopes").array(),
    /** The client addresses (IPv4 and IPv6 CIDRs) the key is accepted from; null: any. */
    allowedIps: text("allowed_ips").array(),
    /** When the key stops working (a rotation's overlap); null: never. */
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }),
    /** Refreshed at most once a minute per key, after the response (see lib/tenancy/authenticate.ts). */
    lastUsedAt: timestamp("last_used_at", { withTimezone: true, mode: "date" }),
  },
  (table) => [
    uniqueIndex("api_keys_hash_idx").on(table.hash),
    index("api_keys_integration_id_idx").on(table.integrationId),
  ],
);
