import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PRICE_SOURCES } from "../../lib/settlement";
import { pollDelaySeconds } from "../../lib/settlement/progress/advance";
import { vendorCalls } from "../../schema";
import type { Harness } from "../harness/app";
import { errorOf } from "../harness/bodies";
import { placeOrder, sendPlan, submitBurn } from "../harness/burns";
import {
  DESTINATION_ADDRESS,
  partnerRequest,
  readOrder,
  SOURCE_ADDRESS,
  settlementSuite,
} from "../harness/settlement";
import type { Tenant } from "../harness/tenants";

/**
 * Circle blocks a caller for five minutes past 35 requests a second. However many orders wait on
 * it, the service asks Iris within one budget (IRIS_CALLS_PER_SECOND), stays away from it for as
 * long as a 429 says, and asks about a burn less often the longer it waits.
 */

describe("the poll delay", () => {
  it("is one poll while a leg is young, one more per 24 polls of waiting, at most 12 polls apart", () => {
    expect(pollDelaySeconds(5, 0)).toBe(5);
    expect(pollDelaySeconds(5, 119_999)).toBe(5);
    expect(pollDelaySeconds(5, 120_000)).toBe(10);
    expect(pollDelaySeconds(5, 10 * 60_000)).toBe(30);
    expect(pollDelaySeconds(5, 24 * 3_600_000)).toBe(60);
    expect(pollDelaySeconds(1, 24_000)).toBe(2);
    expect(pollDelaySeconds(5, -1)).toBe(5);
  });
});

/** Orders placed a second apart (each quote asks Iris for its fees twice) and burned. */
async function burnOrders(h: Harness, tenant: Tenant, amounts: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const amount of amounts) {
    h.clock.advance(1_000);
    const placed = await placeOrder(h, tenant, undefined, amount);
    expect((await submitBurn(h, tenant, placed.orderId, await sendPlan(h, placed))).status).toBe(200);
    ids.push(placed.orderId);
  }
  return ids;
}

describe("one Iris budget for every order", () => {
  let h: Harness;
  let tenant: Tenant;
  beforeAll(async () => {
    ({ h, tenant } = await settlementSuite({ env: { IRIS_CALLS_PER_SECOND: "2" } }));
  }, 60_000);
  afterAll(() => h.close());

  it("asks Iris at most IRIS_CALLS_PER_SECOND times in a second, whatever number of orders wait, and each order still arrives", async () => {
    const ids = await burnOrders(h, tenant, ["20", "21", "22", "23", "24"]);
    h.clock.advance(5_000);
    const before = h.vendors?.circle.requests ?? 0;
    await h.jobs.drain();
    // Five orders due at once, one second of the clock: two calls, the others wait their turn.
    expect((h.vendors?.circle.requests ?? 0) - before).toBe(2);
    for (let poll = 0; poll < 60; poll++) {
      const statuses = await Promise.all(ids.map(async (id) => (await readOrder(h, tenant, id)).status));
      if (statuses.every((status) => status === "DELIVERED")) break;
      h.clock.advance(1_000);
      await h.jobs.drain();
    }
    for (const id of ids) expect((await readOrder(h, tenant, id)).status).toBe("DELIVERED");
  });
});

describe("Circle's 429", () => {
  let h: Harness;
  let tenant: Tenant;
  beforeAll(async () => {
    ({ h, tenant } = await settlementSuite({
      // A Circle that blocks past 3 requests a second, as its real one does past 35; the service's
      // polls keep within 3, so only someone else's requests in the same second can push it over.
      env: { IRIS_CALLS_PER_SECOND: "3" },
      vendors: { circle: { rateLimit: { requests: 3, windowMs: 1000, blockMs: 5 * 60_000 } } },
    }));
  }, 60_000);
  afterAll(() => h.close());

  it("keeps every order away from Iris until Circle's five minutes are up, then each order arrives", async () => {
    const ids = await burnOrders(h, tenant, ["30", "31", "32", "33", "34", "35"]);
    h.clock.advance(5_000);
    // Someone else's three requests in the same second (Circle counts a caller by its address) spend
    // Circle's three: the orders' next poll is refused, and Circle blocks the address five minutes.
    const circleUrl = h.vendors?.circle.url ?? "";
    for (let i = 0; i < 3; i++) await (await fetch(`${circleUrl}/v2/burn/USDC/fees/0/6`)).arrayBuffer();
    await h.jobs.drain();
    const [row] = await h.database.db.select().from(vendorCalls).where(eq(vendorCalls.vendor, "circle-iris"));
    expect(row?.blockedUntil?.getTime()).toBe(h.clock.now().getTime() + 5 * 60_000);
    expect(row?.lastError).toMatch(/HTTP 429/);

    // A partner's quote once the price book's fees are past their 60 s is told when to come back:
    // what is left of Circle's block, as Retry-After.
    h.clock.advance(PRICE_SOURCES.circle_fees.maxAgeMs);
    const quoted = await partnerRequest(h, tenant, "/api/integrations/settlements/quotes", {
      method: "POST",
      body: { sendAmountUsdc: "63", sourceAddress: SOURCE_ADDRESS, destinationAddress: DESTINATION_ADDRESS },
    });
    expect(quoted.status).toBe(503);
    expect((await errorOf(quoted)).code).toBe("PROVIDER_UNAVAILABLE");
    expect(Number(quoted.headers.get("retry-after"))).toBe(4 * 60);

    // For the next five minutes no order asks: not one request of theirs reaches Circle.
    const asked = h.vendors?.circle.requests ?? 0;
    for (let second = 60; second < 295; second += 5) {
      h.clock.advance(5_000);
      await h.jobs.drain();
    }
    expect(h.vendors?.circle.requests).toBe(asked);

    for (let poll = 0; poll < 120; poll++) {
      const statuses = await Promise.all(ids.map(async (id) => (await readOrder(h, tenant, id)).status));
      if (statuses.every((status) => status === "DELIVERED")) break;
      h.clock.advance(1_000);
      await h.jobs.drain();
    }
    for (const id of ids) expect((await readOrder(h, tenant, id)).status).toBe("DELIVERED");
    // Circle refused nobody after its block: the service kept within its three a second.
    const [after] = await h.database.db
      .select()
      .from(vendorCalls)
      .where(eq(vendorCalls.vendor, "circle-iris"));
    expect(after?.lastSuccessAt?.getTime()).toBeGreaterThan(after?.lastErrorAt?.getTime() ?? 0);
  });
});

describe("a burn Circle attests late", () => {
  let h: Harness;
  let tenant: Tenant;
  beforeAll(async () => {
    ({ h, tenant } = await settlementSuite({ slowLegMs: 30 * 60_000 }));
  }, 60_000);
  afterAll(() => h.close());

  it("is asked about less often as it ages: under 100 calls in its 30 minutes, not 360", async () => {
    const [id] = await burnOrders(h, tenant, ["40.73"]);
    const before = h.vendors?.circle.requests ?? 0;
    for (let second = 0; second < 30 * 60; second += 5) {
      h.clock.advance(5_000);
      await h.jobs.drain();
    }
    const calls = (h.vendors?.circle.requests ?? 0) - before;
    expect(calls).toBeGreaterThan(20);
    expect(calls).toBeLessThan(100);
    for (
      let poll = 0;
      poll < 40 && (await readOrder(h, tenant, id as string)).status !== "DELIVERED";
      poll++
    ) {
      h.clock.advance(5_000);
      await h.jobs.drain();
    }
    expect((await readOrder(h, tenant, id as string)).status).toBe("DELIVERED");
  });
});
