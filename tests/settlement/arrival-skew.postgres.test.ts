import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { route as createOrderRoute } from "../../functions/settlement/create-order";
import { loadOrderState, type Move, moveOrder } from "../../lib/settlement/progress/state";
import { settlementOrders } from "../../schema";
import { createHarness, type Harness } from "../harness/app";
import { bodyOf } from "../harness/bodies";
import { quietContext } from "../harness/context";
import { createOrder, createQuote, orderEvents } from "../harness/settlement";
import { createTenant, type Tenant } from "../harness/tenants";

const serverUrl = process.env.TEST_DATABASE_URL;

/**
 * One Transfer, two orders, whatever the workers' clocks say: the move's recheck under the
 * Transfer's lock lets be only a booking from before the Transfer was mined (a reset local chain's
 * other history), never one stamped by a worker whose clock is behind, or one whose `at` was taken
 * before its transaction waited on a lock. (The first version of the recheck compared bookings with
 * the time the checking job read its order: both cases below booked the Transfer twice.)
 */
async function stateOf(ctx: Parameters<typeof loadOrderState>[0], orderId: string) {
  const state = await loadOrderState(ctx, orderId);
  if (!state) throw new Error(`no order ${orderId}`);
  return state;
}

describe.skipIf(!serverUrl)("an arrival booked by two workers", () => {
  let h: Harness;
  let tenant: Tenant;
  beforeAll(async () => {
    h = await createHarness({ chains: true, databaseUrl: serverUrl as string });
    tenant = await createTenant(h, "Skew");
  }, 60_000);
  afterAll(() => h?.close());

  async function routingOrder(key: string) {
    const quote = await createQuote(h, tenant);
    const { orderId } = await bodyOf(await createOrder(h, tenant, quote.quoteId, key), createOrderRoute, 201);
    const ctx = quietContext(h);
    await moveOrder(ctx, await stateOf(ctx, orderId), {
      kind: "FORWARDED_MINT",
      detail: { amount: "1", feeCollected: "0" },
    });
    await moveOrder(ctx, await stateOf(ctx, orderId), { kind: "ROUTE_SENT" });
    return orderId;
  }

  it("is booked once when the booking worker's clock is behind", async () => {
    const a = await routingOrder("skew-a");
    const b = await routingOrder("skew-b");
    const workerB = quietContext(h);
    // Worker A's clock runs one second behind worker B's.
    const workerA = { ...quietContext(h), clock: { now: () => new Date(h.clock.now().getTime() - 1000) } };
    const arrival: Move = {
      kind: "ROUTE_COMPLETED",
      // Mined a minute before the jobs look, as an aggregator's delivery is.
      arrivedAt: new Date(h.clock.now().getTime() - 60_000),
      chainId: 31333,
      txHash: `0x${"b".repeat(64)}`,
      detail: { receivedUsdm: "1000", logIndex: 7 },
    };
    const stateB = await stateOf(workerB, b); // B reads; its leg finds the Transfer free
    h.clock.advance(500); // half a second later (real time) A books it, stamped 0.5 s before B's read
    const stateA = await stateOf(workerA, a);
    expect(await moveOrder(workerA, stateA, arrival)).toBe(true);
    const bookedByB = await moveOrder(workerB, stateB, arrival);
    const booked = [...(await orderEvents(h, a)), ...(await orderEvents(h, b))].filter(
      (event) => event.kind === "ROUTE_COMPLETED",
    );
    expect({ bookedByB, bookings: booked.length }).toEqual({ bookedByB: false, bookings: 1 });
  });

  it("is booked once with one clock when the booking's `at` was taken before its transaction waited", async () => {
    const a = await routingOrder("wait-a");
    const b = await routingOrder("wait-b");
    const ctx = quietContext(h);
    const arrival: Move = {
      kind: "ROUTE_COMPLETED",
      // Mined a minute before the jobs look, as an aggregator's delivery is.
      arrivedAt: new Date(h.clock.now().getTime() - 60_000),
      chainId: 31333,
      txHash: `0x${"c".repeat(64)}`,
      detail: { receivedUsdm: "1000", logIndex: 3 },
    };
    // Something else holds order a's row a moment (a markStuck, another job's move, a slow connection).
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked = () => {};
    const isLocked = new Promise<void>((resolve) => {
      locked = resolve;
    });
    const holder = h.database.db.transaction(async (tx) => {
      await tx.select().from(settlementOrders).where(eq(settlementOrders.id, a)).for("update");
      locked();
      await held;
    });
    await isLocked;
    const stateA = await stateOf(ctx, a);
    // A's move stamps `at` = T now, then waits for the row lock.
    const movingA = moveOrder(ctx, stateA, arrival);
    await new Promise((resolve) => setTimeout(resolve, 300));
    h.clock.advance(200);
    // B reads at T + 0.2 s; its leg finds the Transfer free (A has not committed).
    const stateB = await stateOf(ctx, b);
    release();
    await holder;
    expect(await movingA).toBe(true);
    const bookedByB = await moveOrder(ctx, stateB, arrival);
    const booked = [...(await orderEvents(h, a)), ...(await orderEvents(h, b))].filter(
      (event) => event.kind === "ROUTE_COMPLETED",
    );
    expect({ bookedByB, bookings: booked.length }).toEqual({ bookedByB: false, bookings: 1 });
  });
});
