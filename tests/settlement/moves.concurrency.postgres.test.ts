import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { route as createOrderRoute } from "../../functions/settlement/create-order";
import {
  loadOrderState,
  type Move,
  moveOrder,
  noteOnce,
  noteUnless,
} from "../../lib/settlement/progress/state";
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
 * between them. A note said once per reason is said once however many jobs look at once.
 */
describe.skipIf(!serverUrl)("moves and notes of concurrent jobs", () => {
  let h: Harness;
  let tenant: Tenant;
  beforeAll(async () => {
    h = await createHarness({ chains: true, databaseUrl: serverUrl as string });
    tenant = await createTenant(h, "Arrivals");
  }, 60_000);
  afterAll(() => h?.close());

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
});
