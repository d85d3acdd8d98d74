import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { route as createOrderRoute } from "../../functions/settlement/create-order";
import {
  loadOrderState,
  type Move,
  moveOrder,
  noteOnce,
  noteUnless,
} from "../../lib/settlement/progress/state";
import { settlementOrders } from "../../schema";
import { createHarness, type Harness } from "../harness/app";
import { bodyOf } from "../harness/bodies";
import { quietContext } from "../harness/context";
import { createOrder, createQuote, orderEvents } from "../harness/settlement";
import { createTenant, type Tenant } from "../harness/tenants";

const serverUrl = process.env.TEST_DATABASE_URL;
if (!serverUrl)
  console.warn("moves.concurrency: TEST_DATABASE_URL is not set; skipping the real Postgres race.");

/**
 * What concurrent jobs write once, on real PostgreSQL with concurrent transactions. One Transfer is
 * one order's money: two orders whose reports name the same arrival (a transaction and its log
 * index) at the same moment, each having checked that no other order booked it, book it once
 * between them, whatever the workers' clocks say: the recheck under the Transfer's lock lets be only
 * a booking from before the Transfer was mined (a reset local chain's other history). (A first
 * version compared bookings with the time the checking job read its order: a worker whose clock was
 * behind, or whose `at` was taken before its transaction waited on a lock, booked it twice.) A note
 * said once per reason is said once however many jobs look at once.
 */
describe.skipIf(!serverUrl)("moves and notes of concurrent jobs", () => {
  let h: Harness;
  let tenant: Tenant;
  beforeAll(async () => {
    h = await createHarness({ chains: true, databaseUrl: serverUrl as string });
    tenant = await createTenant(h, "Arrivals");
  }, 60_000);
  afterAll(() => h?.close());

  async function stateOf(ctx: ReturnType<typeof quietContext>, orderId: string) {
    const state = await loadOrderState(ctx, orderId);
    if (!state) throw new Error(`no order ${orderId}`);
    return state;
  }

  async function routingOrder(key: string) {
    const quote = await createQuote(h, tenant);
    const { orderId } = await bodyOf(await createOrder(h, tenant, quote.quoteId, key), createOrderRoute, 201);
    const ctx = quietContext(h);
    const load = async () => {
      const state = await loadOrderState(ctx, orderId);
      if (!state) throw new Error("no order");
      return state;
    };
    await moveOrder(ctx, await load(), {
      kind: "FORWARDED_MINT",
      detail: { amount: "1", feeCollected: "0" },
    });
    await moveOrder(ctx, await load(), { kind: "ROUTE_SENT" });
    return { orderId, state: await load() };
  }

  it("an arrival two orders book at once is booked by one of them, whichever commits first", async () => {
    const ctx = quietContext(h);
    for (let round = 0; round < 10; round++) {
      const [a, b] = await Promise.all([
        routingOrder(`arrival-a-${round}`),
        routingOrder(`arrival-b-${round}`),
      ]);
      const arrival: Move = {
        kind: "ROUTE_COMPLETED",
        chainId: 31333,
        txHash: `0x${String(round + 1).padStart(64, "a")}`,
        detail: { receivedUsdm: "1000", logIndex: 2 },
      };
      const moved = await Promise.all([moveOrder(ctx, a.state, arrival), moveOrder(ctx, b.state, arrival)]);
      expect(moved.filter(Boolean), `round ${round}`).toHaveLength(1);
      const booked = [...(await orderEvents(h, a.orderId)), ...(await orderEvents(h, b.orderId))].filter(
        (event) => event.kind === "ROUTE_COMPLETED",
      );
      expect(booked).toHaveLength(1);
    }
  });

  it("a note ten jobs add at once is on the timeline once", async () => {
    const ctx = quietContext(h);
    const { orderId, state } = await routingOrder("notes-once");
    await Promise.all(
      Array.from({ length: 10 }, () => noteOnce(ctx, state, "EXCHANGE_HALTED", "trading_halted")),
    );
    await Promise.all(
      Array.from({ length: 10 }, () =>
        noteUnless(ctx, state, "ROUTE_FAILED", { substatus: "FAILED", routeTxHash: "0xab" }, (earlier) =>
          earlier.some((detail) => detail?.routeTxHash === "0xab"),
        ),
      ),
    );
    const kinds = (await orderEvents(h, orderId)).map((event) => event.kind);
    expect(kinds.filter((kind) => kind === "EXCHANGE_HALTED")).toHaveLength(1);
    expect(kinds.filter((kind) => kind === "ROUTE_FAILED")).toHaveLength(1);
  });

  it("an arrival is booked once when the booking worker's clock is behind", async () => {
    const { orderId: a } = await routingOrder("skew-a");
    const { orderId: b } = await routingOrder("skew-b");
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

  it("an arrival is booked once when the booking's `at` was taken before its transaction waited on a lock", async () => {
    const { orderId: a } = await routingOrder("wait-a");
    const { orderId: b } = await routingOrder("wait-b");
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
