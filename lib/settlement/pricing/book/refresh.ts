import { gt, lt } from "drizzle-orm";
import { priceBook } from "../../../../schema";
import { describeError } from "../../../kernel/log";
import type { SweepHook } from "../../../kernel/sweep";
import type { SettlementServices } from "../../context";
import { refreshEntry, refreshLeaseMs, takeLease } from "./book";
import { PRICE_SOURCES, type PriceSource } from "./sources";

/** A quote's demand keeps its entries refreshed by the cron this long after. */
export const KEEP_WARM_MS = 10 * 60_000;
/** An entry nobody asked for in a day is dropped; the next quote that needs it asks again. */
const DROP_AFTER_MS = 24 * 60 * 60_000;
/** At most this many refreshes per sweep, so a sweep stays short whatever the book holds. */
const REFRESHES_PER_SWEEP = 50;

/**
 * The cron's part of the book: entries a quote asked for in the last KEEP_WARM_MS are refreshed
 * once past half their maximum age, so the next quote after a quiet spell finds them fresh, one at a
 * time per entry under the same lease a quote takes; entries left a day are dropped.
 */
export const refreshPriceBook: SweepHook<SettlementServices> = {
  name: "refresh-price-book",
  async run(ctx) {
    const now = ctx.clock.now();
    await ctx.db.delete(priceBook).where(lt(priceBook.demandedAt, new Date(now.getTime() - DROP_AFTER_MS)));
    const demanded = await ctx.db
      .select({
        key: priceBook.key,
        source: priceBook.source,
        request: priceBook.request,
        fetchedAt: priceBook.fetchedAt,
      })
      .from(priceBook)
      .where(gt(priceBook.demandedAt, new Date(now.getTime() - KEEP_WARM_MS)));
    let refreshed = 0;
    for (const entry of demanded) {
      if (refreshed >= REFRESHES_PER_SWEEP) break;
      if (!(entry.source in PRICE_SOURCES)) continue;
      const source = entry.source as PriceSource;
      const { maxAgeMs } = PRICE_SOURCES[source];
      const staleAfter = new Date(now.getTime() - maxAgeMs / 2);
      if (entry.fetchedAt && entry.fetchedAt > staleAfter) continue;
      const request = PRICE_SOURCES[source].request.parse(entry.request);
      const at = { now, freshAfter: staleAfter, leaseMs: refreshLeaseMs(ctx), demanded: false };
      if (!(await takeLease(ctx, entry.key, source, request, at))) continue;
      try {
        await refreshEntry(ctx, entry.key, source, request, now);
        refreshed += 1;
      } catch (error) {
        // The vendor's outage or limit is its own row's (vendor_calls); the next quote asks again.
        ctx.log.warn("price book refresh failed", { source, ...describeError(error) });
      }
    }
    return refreshed;
  },
};
