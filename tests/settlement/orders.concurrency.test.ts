import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { settlementOrders } from "../../schema";
import { createHarness, type Harness } from "../harness/app";
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
      responses
        .filter((r) => r.status === 409)
        .map(async (r) => ((await r.json()) as { error: { code: string } }).error.code),
    );
    expect(new Set(codes)).toEqual(new Set(["QUOTE_ALREADY_USED"]));
    expect(await ordersOf(quote.quoteId)).toHaveLength(1);
  });

  it("ten orders racing on one burn hash end with exactly one winner", async () => {
    // The same user quoting the same amount gets the same terms, so one burn matches every order.
    const first = await placeOrder(h, tenant);
    const others = await Promise.all(Array.from({ length: 9 }, () => placeOrder(h, tenant, first.user)));
    const orders = [first, ...others];
    expect(new Set(orders.map((o) => o.totalDebit))).toEqual(new Set([first.totalDebit]));
    const hash = await sendPlan(h, first);
    const responses = await Promise.all(orders.map((o) => submitBurn(h, tenant, o.orderId, hash)));
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(9);
    const burned = await h.database.db
      .select()
      .from(settlementOrders)
      .where(eq(settlementOrders.burnTxHash, hash));
    expect(burned).toHaveLength(1);
    expect(burned[0]?.status).toBe("BURNED");
  });
});
