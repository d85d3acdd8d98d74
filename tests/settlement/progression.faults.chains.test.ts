import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { route as adminListStuck } from "../../functions/settlement/admin-list-stuck";
import { runSweep } from "../../lib/kernel/sweep";
import { legDeadlines } from "../../lib/settlement/legs/deadlines";
import type { FaultInjector, FaultPoint } from "../../lib/settlement/payments";
import { advanceOrder } from "../../lib/settlement/progress/advance";
import { markOverdueOrders, recoverInFlightOrders } from "../../lib/settlement/progress/sweep-hooks";
import { settlementEvents, settlementOrders, settlementTransactions } from "../../schema";
import { createHarness, type Harness } from "../harness/app";
import { bodyOf } from "../harness/bodies";
import { placeOrder, sendPlan, submitBurn } from "../harness/burns";
import { quietContext } from "../harness/context";
import { enableBurnPlan } from "../harness/settlement";
import { adminRequest, createTenant, type Tenant } from "../harness/tenants";

class Crash extends Error {}

/** Crashes the job once, at one point, for one purpose: as a worker dying mid-step would. */
function crashOnce(point: FaultPoint, purpose: string): FaultInjector & { fired: boolean } {
  return {
    fired: false,
    at(where, what) {
      if (this.fired || where !== point) return;
      if (what !== purpose) return;
      this.fired = true;
      throw new Crash(`crash ${where} ${what}`);
    },
  };
}

describe("settlement progression under faults", () => {
  let h: Harness;
  let tenant: Tenant;
  beforeAll(async () => {
    // Each order's payments exhaust the allowance, so every order tops it up and each crash point is reached.
    h = await createHarness({ chains: true, env: { SETTLEMENT_ALLOWANCE_PAYMENTS: "1" } });
    tenant = await createTenant(h);
    await enableBurnPlan(h, tenant);
  }, 60_000);
  afterAll(() => h.close());

  const ctx = (faults?: FaultInjector) => quietContext(h, faults);
  const status = async (orderId: string) =>
    (await h.database.db.select().from(settlementOrders).where(eq(settlementOrders.id, orderId)))[0];
  /** Time passes between two runs of the job as between two of its polls (chain time follows). */
  const nextPoll = () => h.clock.advance(h.deps.config.SETTLEMENT_POLL_SECONDS * 1000);

  async function burnedOrder() {
    const placed = await placeOrder(h, tenant);
    const hash = await sendPlan(h, placed);
    expect((await submitBurn(h, tenant, placed.orderId, hash)).status).toBe(200);
    return placed.orderId;
  }

  /** Runs the job until it stops crashing and the order is delivered, like QStash retrying. */
  async function runToDelivery(orderId: string, faults: FaultInjector) {
    for (let attempt = 0; attempt < 30 && (await status(orderId))?.status !== "DELIVERED"; attempt++) {
      await advanceOrder(ctx(faults), orderId).catch((error: unknown) => {
        if (!(error instanceof Crash)) throw error;
      });
      nextPoll();
    }
    return status(orderId);
  }

  // The order's own payments, and the settlement account's allowance top-ups they need (no order's).
  const payments = ["route", "exchange", "delivery"];
  const purposes = ["allowance", ...payments];
  const allowances = async () =>
    // In the order they were recorded (ids sort by time): a server returns rows in no order otherwise.
    (
      await h.database.db.select().from(settlementTransactions).orderBy(asc(settlementTransactions.id))
    ).filter((t) => t.purpose === "allowance");
  // Before the send (recorded, not broadcast), after the send before its state is recorded, and
  // after the transaction is mined and recorded but before the order moves: for every payment.
  for (const point of ["after-record", "after-broadcast", "after-confirm"] as const) {
    for (const purpose of purposes) {
      it(`a crash ${point} of ${purpose} pays no leg twice and the order still arrives`, async () => {
        const orderId = await burnedOrder();
        const approvalsBefore = (await allowances()).length;
        const faults = crashOnce(point, purpose);
        const order = await runToDelivery(orderId, faults);
        expect(faults.fired).toBe(true);
        expect(order?.status).toBe("DELIVERED");
        const sent = await h.database.db
          .select()
          .from(settlementTransactions)
          .where(eq(settlementTransactions.orderId, orderId));
        expect(sent.map((t) => t.purpose).sort()).toEqual([...payments].sort());
        expect(sent.every((t) => t.status === "success")).toBe(true);
        // One top-up per chain (intermediate for the route, destination for the exchange), none repeated.
        const approvals = (await allowances()).slice(approvalsBefore);
        expect(approvals.map((t) => t.chainId).sort()).toEqual([31332, 31333]);
        expect(approvals.every((t) => t.status === "success")).toBe(true);
        // One nonce per transaction: nothing was signed twice for the same purpose.
        const mine = [...sent, ...approvals];
        expect(new Set(mine.map((t) => `${t.chainId}:${t.nonce}`)).size).toBe(mine.length);
      });
    }
  }

  it("two jobs advancing one order at once send each transaction once", async () => {
    const orderId = await burnedOrder();
    for (let round = 0; round < 15 && (await status(orderId))?.status !== "DELIVERED"; round++) {
      await Promise.all([advanceOrder(ctx(), orderId), advanceOrder(ctx(), orderId)]);
      nextPoll();
    }
    expect((await status(orderId))?.status).toBe("DELIVERED");
    const sent = await h.database.db
      .select()
      .from(settlementTransactions)
      .where(eq(settlementTransactions.orderId, orderId));
    expect(sent).toHaveLength(payments.length);
  });

  it("recovers an order whose job message was lost, from the cron sweep", async () => {
    const orderId = await burnedOrder();
    // Lose every queued message, then let time pass beyond three polls.
    h.jobs.loseAll();
    h.clock.advance(60_000);
    const reports = await runSweep(ctx(), [recoverInFlightOrders]);
    expect(reports[0]?.acted).toBeGreaterThanOrEqual(1);
    for (let poll = 0; poll < 20 && (await status(orderId))?.status !== "DELIVERED"; poll++) {
      await h.jobs.drain();
      h.clock.advance(5_000);
    }
    expect((await status(orderId))?.status).toBe("DELIVERED");
  });

  it("marks an order STUCK past its leg's deadline, lists it for the operator, and heals when it moves", async () => {
    const orderId = await burnedOrder();
    h.jobs.loseAll();
    h.clock.advance(31 * 60_000);
    await runSweep(ctx(), [markOverdueOrders]);
    expect((await status(orderId))?.health).toBe("STUCK");
    const listed = await bodyOf(await adminRequest(h, "/admin/settlements/stuck"), adminListStuck, 200);
    expect(listed.orders.map((o) => o.orderId)).toContain(orderId);

    const retried = await adminRequest(h, `/admin/settlements/orders/${orderId}/retry`, { method: "POST" });
    expect(retried.status).toBe(202);
    for (let poll = 0; poll < 20 && (await status(orderId))?.status !== "DELIVERED"; poll++) {
      await h.jobs.drain();
      h.clock.advance(5_000);
    }
    expect(await status(orderId)).toMatchObject({ status: "DELIVERED", health: "HEALTHY" });
  });

  it("notes a route the aggregator reports failed once, goes STUCK past the ROUTING deadline, and keeps observing it", async () => {
    const orderId = await burnedOrder();
    const realRoute = h.deps.providers.legs.bridge;
    h.deps.providers.legs.bridge = { status: async () => ({ status: "failed", substatus: "REFUNDED" }) };
    try {
      for (let round = 0; round < 10; round++) {
        await advanceOrder(ctx(), orderId);
        nextPoll();
      }
      // The aggregator's failure is told once, and the order waits for the refund, healthy until its deadline.
      expect(await status(orderId)).toMatchObject({ status: "ROUTING", health: "HEALTHY" });
      const events = await h.database.db
        .select()
        .from(settlementEvents)
        .where(eq(settlementEvents.orderId, orderId));
      expect(events.filter((event) => event.kind === "ROUTE_FAILED")).toHaveLength(1);
      h.clock.advance((legDeadlines(h.deps.config).ROUTING + 1) * 1000);
      await runSweep(ctx(), [markOverdueOrders]);
      expect(await status(orderId)).toMatchObject({ status: "ROUTING", health: "STUCK" });
    } finally {
      h.deps.providers.legs.bridge = realRoute;
    }
    // The aggregator recovers (in the sandbox the route was in fact paid out): the order moves on and heals.
    for (let round = 0; round < 15 && (await status(orderId))?.status !== "DELIVERED"; round++) {
      await advanceOrder(ctx(), orderId);
      nextPoll();
    }
    expect(await status(orderId)).toMatchObject({ status: "DELIVERED", health: "HEALTHY" });
  });
});
