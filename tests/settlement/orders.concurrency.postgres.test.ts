import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { route as submitBurnRoute } from "../../functions/settlement/submit-burn";
import { settlementEvents, settlementOrders } from "../../schema";
import { createHarness, type Harness } from "../harness/app";
import { bodyOf, errorOf } from "../harness/bodies";
import { placeOrder, sendPlan, submitBurn } from "../harness/burns";
import { createOrder, createQuote, enableBurnPlan } from "../harness/settlement";
import { createTenant, type Tenant } from "../harness/tenants";

const serverUrl = process.env.TEST_DATABASE_URL;
if (!serverUrl)
  console.warn("orders.concurrency: TEST_DATABASE_URL is not set; skipping the real Postgres races.");

describe.skipIf(!serverUrl)("order creation races on real PostgreSQL", () => {
  let h: Harness;
  let tenant: Tenant;
  beforeAll(async () => {
    h = await createHarness({ chains: true, databaseUrl: serverUrl as string });
    tenant = await createTenant(h);
    await enableBurnPlan(h, tenant);
  }, 60_000);
  afterAll(() => h?.close());

  const ordersOf = (quoteId: string) =>
    h.database.db.select().from(settlementOrders).where(eq(settlementOrders.quoteId, quoteId));

  it("50 parallel creates with one key and one quote make one order and 50 identical answers", async () => {
    const quote = await createQuote(h, tenant);
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => createOrder(h, tenant, quote.quoteId, "race-same-key")),
    );
    const bodies = await Promise.all(responses.map((r) => r.text()));
    expect(responses.map((r) => r.status)).toEqual(Array(50).fill(201));
    expect(new Set(bodies).size).toBe(1);
    expect(await ordersOf(quote.quoteId)).toHaveLength(1);
  });

  it("50 parallel creates with 50 keys on one quote make one order and 49 QUOTE_ALREADY_USED", async () => {
    const quote = await createQuote(h, tenant);
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) => createOrder(h, tenant, quote.quoteId, `race-key-${i}`)),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    const codes = await Promise.all(
      responses.filter((r) => r.status === 409).map(async (r) => (await errorOf(r)).code),
    );
    expect(new Set(codes)).toEqual(new Set(["QUOTE_ALREADY_USED"]));
    expect(await ordersOf(quote.quoteId)).toHaveLength(1);
  });

  it("a burn raced by its own order five times and by nine other orders is recorded once, for its own order only", async () => {
    // The same user quoting the same amount gets the same terms: only the hook data's order
    // commitment tells which order the burn belongs to.
    const first = await placeOrder(h, tenant);
    const others = await Promise.all(Array.from({ length: 9 }, () => placeOrder(h, tenant, first.user)));
    expect(new Set([first, ...others].map((o) => o.totalDebit))).toEqual(new Set([first.totalDebit]));
    const hash = await sendPlan(h, first);
    const submissions = [
      ...Array.from({ length: 5 }, () => ({ orderId: first.orderId, own: true })),
      ...others.map((o) => ({ orderId: o.orderId, own: false })),
    ];
    const responses = await Promise.all(submissions.map((s) => submitBurn(h, tenant, s.orderId, hash)));
    const answers = await Promise.all(
      responses.map(async (r) => {
        if (r.status !== 200) return `${r.status}:${(await errorOf(r)).code}`;
        await bodyOf(r, submitBurnRoute, 200);
        return "200:ok";
      }),
    );
    expect(answers.filter((_, i) => submissions[i]?.own)).toEqual(Array(5).fill("200:ok"));
    for (const answer of answers.filter((_, i) => !submissions[i]?.own)) {
      expect(["400:INVALID_BURN", "409:BURN_ALREADY_USED"]).toContain(answer);
    }
    const burned = await h.database.db
      .select()
      .from(settlementOrders)
      .where(eq(settlementOrders.burnTxHash, hash));
    expect(burned.map((o) => [o.id, o.status])).toEqual([[first.orderId, "BURNED"]]);
    const verified = await h.database.db
      .select()
      .from(settlementEvents)
      .where(and(eq(settlementEvents.orderId, first.orderId), eq(settlementEvents.kind, "BURN_VERIFIED")));
    expect(verified).toHaveLength(1);
  });
});
