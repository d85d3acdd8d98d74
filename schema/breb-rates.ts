import { pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

/**
 * The payout provider's last rate per token, shared by every quote while it is fresh
 * (BREB_RATE_CACHE_SECONDS), so a burst of quotes asks the provider once.
 */
export const brebRates = pgTable(
  "breb_rates",
  {
    provider: text("provider").notNull(),
    token: text("token").notNull(),
    /** COP per whole token, as the provider wrote it. */
    copPerUnit: text("cop_per_unit").notNull(),
    fetchedAt: timestamp("fetched_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.provider, table.token] })],
);
