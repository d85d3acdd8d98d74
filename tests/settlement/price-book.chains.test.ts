import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repriceMentoPool, sandboxChainOf, WAD } from "../../dev/chains";
import { PRICE_SOURCES, priceBookMemory, refreshPriceBook } from "../../lib/settlement";
import { bookAnswer } from "../../lib/settlement/pricing/book/book";
import { KEEP_WARM_MS } from "../../lib/settlement/pricing/book/refresh";
import { priceBook, vendorCalls } from "../../schema";
import type { Harness } from "../harness/app";
import { errorOf } from "../harness/bodies";
import { quietContext } from "../harness/context";
import { createQuote, partnerRequest, settlementSuite } from "../harness/settlement";
import type { Tenant } from "../harness/tenants";

/**
 * The price book (docs/pricing.md): quotes read Circle's fees, the aggregator's route and Mento's
 * rate from Postgres while fresh by each source's maximum age, refresh one at a time per entry, and
 * ask the aggregator again only when an entry is stale; its 429 keeps every refresh away.
 */
describe("the price book", () => {
  let h: Harness;
  let tenant: Tenant;
  const asked = () => h.vendors?.aggregator.quotesAsked() ?? Number.NaN;
  const routeRows = async () =>
    (await h.database.db.select().from(priceBook).where(eq(priceBook.source, "route"))).length;
  // Each test starts past every entry's maximum age, so it sees its own refreshes only.
  const pastEveryAge = () => h.clock.advance(PRICE_SOURCES.circle_fees.maxAgeMs + 1);

  beforeAll(async () => {
    ({ h, tenant } = await settlementSuite({
      vendors: { aggregator: { rateLimit: { requests: 6, windowMs: 60_000 } } },
    }));
  });
  afterAll(async () => {
    await h?.close();
  });

  it("prices 30 quotes at once with one aggregator call per entry, and every quote the same", async () => {
    pastEveryAge();
    const before = asked();
    const quotes = await Promise.all(Array.from({ length: 30 }, () => createQuote(h, tenant, "100")));
    // 100 USDC less the service's fee is off the grid: its two neighbours, one call each.
    expect(asked() - before).toBe(2);
    expect(new Set(quotes.map((quote) => quote.copAmountMin)).size).toBe(1);
    expect(await routeRows()).toBeGreaterThanOrEqual(2);
  });

  it("serves a partner typing an amount (10, 10.5 … 19.5 USDC) from the grid: three calls for 20 quotes", async () => {
    pastEveryAge();
    const before = asked();
    for (let tenths = 100; tenths < 200; tenths += 5) {
      await createQuote(h, tenant, (tenths / 10).toString());
    }
    // Route inputs from about 9.9 to 19.3 USDC lie between 5, 10 and 20 USDC.
    expect(asked() - before).toBe(3);
  });

  it("asks again once an entry is older than its source's maximum age, and not before", async () => {
    pastEveryAge();
    await createQuote(h, tenant, "100");
    const before = asked();
    h.clock.advance(PRICE_SOURCES.route.maxAgeMs - 1);
    await createQuote(h, tenant, "100");
    expect(asked() - before).toBe(0);
    h.clock.advance(1);
    await createQuote(h, tenant, "100");
    expect(asked() - before).toBe(2);
  });

  it("refreshes an entry once across isolates: ten isolates' copies empty, one aggregator call", async () => {
    pastEveryAge();
    const ctx = quietContext(h);
    const destination = ctx.chains.byRole("destination");
    const intermediate = ctx.chains.byRole("intermediate");
    if (!destination?.contracts.usdm || !intermediate?.contracts.usdc) throw new Error("chains");
    const request = {
      fromChainId: intermediate.chainId,
      toChainId: destination.chainId,
      fromToken: intermediate.contracts.usdc,
      toToken: destination.contracts.usdm,
      fromAmount: 50_000_000n,
      fromAddress: "0x90F79bf6EB2c4f870365E785982E1f101E93b906",
      toAddress: "0x90F79bf6EB2c4f870365E785982E1f101E93b906",
      slippageBps: 300,
    } as const;
    const before = asked();
    const isolates = Array.from({ length: 10 }, () => ({
      ...ctx,
      providers: { ...ctx.providers, prices: priceBookMemory() },
    }));
    const answers = await Promise.all(isolates.map((isolate) => bookAnswer(isolate, "route", request)));
    expect(asked() - before).toBe(1);
    expect(new Set(answers.map((answer) => answer.toAmount)).size).toBe(1);
  });

  it("keeps Mento's rate for at most its maximum age: a repriced pool shows in quotes from 10 s on", async () => {
    pastEveryAge();
    const network = h.network;
    if (!network) throw new Error("no chains");
    const destination = sandboxChainOf(network, "destination");
    const first = await createQuote(h, tenant, "100");
    try {
      await repriceMentoPool(destination, "USDm/COPm", { rate: 3_800n * WAD, spread: 25n * 10n ** 14n });
      h.clock.advance(PRICE_SOURCES.mento.maxAgeMs - 1);
      expect((await createQuote(h, tenant, "100")).copAmountMin).toBe(first.copAmountMin);
      h.clock.advance(1);
      const repriced = await createQuote(h, tenant, "100");
      expect(Number(repriced.copAmountMin)).toBeLessThan(Number(first.copAmountMin) * 0.98);
    } finally {
      await repriceMentoPool(destination, "USDm/COPm", { rate: 3_900n * WAD, spread: 25n * 10n ** 14n });
    }
  });

  it("keeps the cron refreshing what quotes asked for, past half its age, and only for a while", async () => {
    // Nothing demanded from the tests before: the cron has this quote's entries only.
    h.clock.advance(KEEP_WARM_MS + 1);
    await createQuote(h, tenant, "100");
    const ctx = quietContext(h);
    h.clock.advance(PRICE_SOURCES.route.maxAgeMs / 2 + 1);
    const before = asked();
    // Past half the route's and Mento's maximum ages, not Circle's fees' (60 s): those two are refreshed.
    const demanded = (await h.database.db.select().from(priceBook)).filter(
      (entry) => entry.demandedAt.getTime() > h.clock.now().getTime() - KEEP_WARM_MS,
    );
    const refreshed = await refreshPriceBook.run(ctx);
    expect(demanded.map((entry) => entry.source).sort()).toEqual([
      "circle_fees",
      "mento",
      "mento",
      "route",
      "route",
    ]);
    expect(refreshed).toBe(4);
    expect(asked() - before).toBe(2);
    // Fresh now: the next quote asks nobody.
    const during = asked();
    await createQuote(h, tenant, "100");
    expect(asked()).toBe(during);
    // Ten minutes without a quote's demand: the cron leaves the entries.
    h.clock.advance(10 * 60_000 + 1);
    const idle = asked();
    expect(await refreshPriceBook.run(ctx)).toBe(0);
    expect(asked()).toBe(idle);
  });

  it("backs off the aggregator's 429: a quote needing a refresh is 503 with Retry-After, and LI.FI is not asked again", async () => {
    pastEveryAge();
    // A new window of the aggregator's six quotes a minute, then amounts whose neighbours differ.
    h.clock.advance(60_000 - (h.clock.now().getTime() % 60_000));
    let refused: Response | undefined;
    for (const dollars of ["12", "25", "60", "120", "250", "600"]) {
      const response = await partnerRequest(h, tenant, "/api/integrations/settlements/quotes", {
        method: "POST",
        body: {
          sendAmountUsdc: dollars,
          sourceAddress: "0x90F79bf6EB2c4f870365E785982E1f101E93b906",
          destinationAddress: "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65",
        },
      });
      if (response.status === 503) {
        refused = response;
        break;
      }
    }
    if (!refused) throw new Error("the aggregator never refused");
    expect(refused.status).toBe(503);
    expect(await errorOf(refused)).toMatchObject({ code: "PROVIDER_UNAVAILABLE", stage: "QUOTE" });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    const [lifi] = await h.database.db
      .select()
      .from(vendorCalls)
      .where(eq(vendorCalls.vendor, "lifi-quotes"));
    expect(lifi?.blockedUntil?.getTime()).toBeGreaterThan(h.clock.now().getTime());
    const after = asked();
    // Stale entries, still within LI.FI's block.
    h.clock.advance(PRICE_SOURCES.route.maxAgeMs + 1);
    await partnerRequest(h, tenant, "/api/integrations/settlements/quotes", {
      method: "POST",
      body: {
        sendAmountUsdc: "100",
        sourceAddress: "0x90F79bf6EB2c4f870365E785982E1f101E93b906",
        destinationAddress: "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65",
      },
    });
    expect(asked()).toBe(after);
    // Past LI.FI's block, quotes are priced again.
    h.clock.advance(Math.max(0, (lifi?.blockedUntil?.getTime() ?? 0) - h.clock.now().getTime()) + 1);
    expect((await createQuote(h, tenant, "100")).quoteId).toMatch(/^qt_/);
  });
});
