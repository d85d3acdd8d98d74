import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { route as createOrderRoute } from "../../functions/settlement/create-order";
import { newId } from "../../lib/kernel/ids";
import { decideReturn } from "../../lib/settlement/legs/return-decision";
import { loadOrderState, type Move, moveOrder, recordedHash } from "../../lib/settlement/progress/state";
import { settlementTransactions, type TransactionStatus } from "../../schema";
import { createHarness, type Harness } from "../harness/app";
import { bodyOf } from "../harness/bodies";
import { quietContext } from "../harness/context";
import { createOrder, createQuote, orderEvents } from "../harness/settlement";
import { createTenant, type Tenant } from "../harness/tenants";

/**
 * How an order moves: compare-and-set on its version, so a status pair that comes back (a refunded
 * route, a refunded way back) is never moved from again by a job that read it before; and what
 * counts as a recorded forward payment when a return is decided.
 */

let h: Harness;
let tenant: Tenant;
beforeAll(async () => {
  h = await createHarness({ chains: true });
  tenant = await createTenant(h, "Mover");
}, 60_000);
afterAll(() => h.close());

async function newOrder(key: string): Promise<string> {
  const quote = await createQuote(h, tenant);
  const response = await createOrder(h, tenant, quote.quoteId, key);
  return (await bodyOf(response, createOrderRoute, 201)).orderId;
}

/** A payment row as the recorder writes it, in the status a test needs (nothing is sent). */
function recordPayment(
  orderId: string,
  purpose: string,
  status: TransactionStatus,
  nonce: number,
  chainId = 31332,
) {
  const now = h.clock.now();
  return h.database.db.insert(settlementTransactions).values({
    id: newId("stx", h.clock),
    orderId,
    purpose,
    chainId,
    fromAddress: "0x00000000000000000000000000000000000000aa",
    nonce,
    hash: `0x${String(nonce).padStart(64, "0")}`,
    raw: "0x",
    request: null,
    status,
    createdAt: now,
    updatedAt: now,
  });
}

async function stateOf(orderId: string) {
  const state = await loadOrderState(quietContext(h), orderId);
  if (!state) throw new Error("no order");
  return state;
}

/** A forwarded mint's move, with figures the tests do not read. */
const minted: Move = { kind: "FORWARDED_MINT", detail: { amount: "1", feeCollected: "0" } };

describe("order moves", () => {
  it("a job that read the order before it moved away and came back cannot move it a second time", async () => {
    const ctx = quietContext(h);
    const orderId = await newOrder("moves-aba");
    expect(await moveOrder(ctx, await stateOf(orderId), minted)).toBe(true);
    const stale = await stateOf(orderId);
    expect(await moveOrder(ctx, stale, { kind: "ROUTE_SENT" })).toBe(true);
    // Back to the pair the stale job read: a refunded route brings an order back to MINTED.
    expect(
      await moveOrder(ctx, await stateOf(orderId), {
        kind: "ROUTE_REFUNDED",
        detail: { amount: "1", substatus: "REFUNDED" },
      }),
    ).toBe(true);
    expect((await stateOf(orderId)).order.status).toBe("MINTED");
    expect(await moveOrder(ctx, stale, { kind: "ROUTE_SENT" })).toBe(false);
    const kinds = (await orderEvents(h, orderId)).map((event) => event.kind);
    expect(kinds).toEqual(["FORWARDED_MINT", "ROUTE_SENT", "ROUTE_REFUNDED"]);
    expect((await stateOf(orderId)).order.version).toBe(3);
  });

  it("counts a live or successful payment as recorded, never one that reverted, was dropped or replaced", async () => {
    const orderId = await newOrder("moves-recorded");
    await recordPayment(orderId, "route", "reverted", 901);
    await recordPayment(orderId, "exchange", "dropped", 902);
    await recordPayment(orderId, "exchange", "replaced", 903);
    expect(await recordedHash(h.database.db, orderId, "route")).toBeUndefined();
    expect(await recordedHash(h.database.db, orderId, "exchange")).toBeUndefined();
    await recordPayment(orderId, "exchange", "sent", 904);
    expect(await recordedHash(h.database.db, orderId, "exchange")).toBe(`0x${"904".padStart(64, "0")}`);
  });

  it("returns an order whose route reverted (its money never left), but not one whose exchange is recorded", async () => {
    const ctx = quietContext(h);
    const reverted = await newOrder("moves-reverted-route");
    expect(await moveOrder(ctx, await stateOf(reverted), minted)).toBe(true);
    await recordPayment(reverted, "route", "reverted", 905);
    await expect(decideReturn(ctx, reverted, { reason: "test", by: "operator" })).resolves.toMatchObject({
      status: "MINTED",
    });

    const exchanging = await newOrder("moves-exchanging");
    expect(
      await moveOrder(ctx, await stateOf(exchanging), {
        kind: "ROUTE_COMPLETED",
        detail: { receivedUsdm: "1" },
      }),
    ).toBe(true);
    await recordPayment(exchanging, "exchange", "sent", 906, 31333);
    await expect(decideReturn(ctx, exchanging, { reason: "test", by: "operator" })).rejects.toMatchObject({
      code: "ORDER_NOT_RETURNABLE",
    });
  });
});
