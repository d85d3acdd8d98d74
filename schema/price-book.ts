import { index, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * The service's shared book of prices (lib/settlement/pricing/book): one row per thing priced
 * (Circle's fees for a route and speed; the aggregator's route at one amount on the grid; Mento's
 * rate and trading limits at one amount), with what was asked, the answer, and when. Quotes read it
 * while an entry is younger than its source's maximum age; one refresh at a time per entry, by
 * whoever takes the lease.
 */
export const priceBook = pgTable(
  "price_book",
  {
    /** The source and its request, as canonical text: one row per distinct question. */
    key: text("key").primaryKey(),
    /** PriceSource: circle_fees, route, mento. */
    source: text("source").notNull(),
    /** What the source is asked on a refresh (amounts as decimal text of atomic units). */
    request: jsonb("request").notNull(),
    /** The last answer: a price, or the source's refusal (no route, a trading limit), as text. */
    answer: jsonb("answer"),
    fetchedAt: timestamp("fetched_at", { withTimezone: true, mode: "date" }),
    /** Whoever refreshes the entry holds it until then; another waits for that refresh. */
    refreshingUntil: timestamp("refreshing_until", { withTimezone: true, mode: "date" }),
    /** The last refresh a quote asked for: the cron keeps such entries warm for a while after. */
    demandedAt: timestamp("demanded_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (table) => [index("price_book_demanded_at").on(table.demandedAt)],
);
