import { getAbiItem, type Hex, parseEventLogs } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandboxChainOf, sandboxPublicClient, sandboxRouterAbi } from "../../dev/chains";
import { route as sandboxFaucet } from "../../functions/sandbox/faucet";
import { erc20Abi } from "../../lib/kernel/chain/abis";
import { runSweep } from "../../lib/kernel/sweep";
import { markOverdueOrders } from "../../lib/settlement/progress/sweep-hooks";
import type { Harness } from "../harness/app";
import { bodyOf, errorOf } from "../harness/bodies";
import { placeOrder, sendPlan, submitBurn } from "../harness/burns";
import { quietContext } from "../harness/context";
import { orderRow, partnerRequest, readOrder, settlementSuite } from "../harness/settlement";
import { adminRequest, type Tenant } from "../harness/tenants";

/**
 * The aggregator reports a route FAILED (mock mode's test amounts): `.78` refunded at once
 * (FAILED/REFUNDED), `.79` with the refund owed for the slow leg (FAILED/NOT_PROCESSABLE_REFUND_NEEDED,
 * nothing in `receiving`), then refunded. Neither waits on nobody: the order says the route failed,
 * goes STUCK past its ROUTING deadline while the refund is owed, and once the refund is read it
 * routes again and is DELIVERED.
 */
const SLOW_LEG_MS = 120_000;
const ROUTING_DEADLINE_S = 40;

describe("settlement through a failed route", () => {
  let h: Harness;
  let tenant: Tenant;
  beforeAll(async () => {
    ({ h, tenant } = await settlementSuite({
      slowLegMs: SLOW_LEG_MS,
      deadlines: { ROUTING: ROUTING_DEADLINE_S },
    }));
  }, 60_000);
  afterAll(() => h.close());

  const read = (orderId: string) => readOrder(h, tenant, orderId);
  const kinds = async (orderId: string) => (await read(orderId)).timeline.map((entry) => entry.kind);

  async function burned(amount: string) {
    const placed = await placeOrder(h, tenant, undefined, amount);
    expect((await submitBurn(h, tenant, placed.orderId, await sendPlan(h, placed))).status).toBe(200);
    return placed.orderId;
  }

  /** The scheduler drained a poll at a time, the cron sweep after each, as production runs them. */
  async function drive(orderId: string, until: (status: string, health: string) => boolean, polls = 60) {
    for (let poll = 0; poll < polls; poll++) {
      const order = await orderRow(h, orderId);
      if (order && until(order.status, order.health)) break;
      await h.jobs.drain();
      await runSweep(quietContext(h), [markOverdueOrders]);
      h.clock.advance(5_000);
    }
    return read(orderId);
  }

  /** The refund named by ROUTE_REFUNDED is a USDC Transfer to the settlement account on the intermediate chain. */
  async function refundTransfer(orderId: string) {
    const refund = (await read(orderId)).timeline.find((entry) => entry.kind === "ROUTE_REFUNDED");
    if (!h.network || !refund?.txHash) throw new Error("no refund");
    const intermediate = sandboxChainOf(h.network, "intermediate");
    const receipt = await sandboxPublicClient(intermediate).getTransactionReceipt({
      hash: refund.txHash as Hex,
    });
    return parseEventLogs({ abi: erc20Abi, eventName: "Transfer", logs: receipt.logs }).find(
      (log) =>
        log.address.toLowerCase() === intermediate.contracts.usdc?.toLowerCase() &&
        log.args.to === h.deps.settlement.accountAddress,
    );
  }

  it(".78: the aggregator reports the route FAILED and refunded at once; ROUTE_FAILED, ROUTE_REFUNDED, routed again, DELIVERED", async () => {
    const orderId = await burned("44.78");
    const order = await drive(orderId, (status) => status === "DELIVERED" || status === "RETURNED");
    expect(order).toMatchObject({ status: "DELIVERED", health: "HEALTHY" });
    expect(order.timeline.map((entry) => entry.kind)).toEqual([
      "ORDER_CREATED",
      "BURN_VERIFIED",
      "ATTESTATION_REQUESTED",
      "ATTESTED",
      "FORWARDED_MINT",
      "ROUTE_SENT",
      "ROUTE_FAILED",
      "ROUTE_REFUNDED",
      "ROUTE_SENT",
      "ROUTE_COMPLETED",
      "EXCHANGED",
      "DELIVERED",
    ]);
    expect(await refundTransfer(orderId)).toBeDefined();
  });

  it(".79: FAILED with the refund owed; ROUTE_FAILED once, STUCK past the ROUTING deadline and still asked; the late refund routes it again, DELIVERED", async () => {
    const orderId = await burned("45.79");
    const failed = await drive(orderId, () => false, 0);
    expect(failed.status).toBe("BURNED");
    // Until the route is sent and reported FAILED.
    await drive(orderId, () => false, 8);
    const waiting = await read(orderId);
    expect(waiting.status).toBe("ROUTING");
    expect(waiting.timeline.filter((entry) => entry.kind === "ROUTE_FAILED")).toHaveLength(1);
    const [sent] = waiting.timeline.filter((entry) => entry.kind === "ROUTE_SENT");

    // Past the ROUTING deadline with the refund still owed: STUCK, still ROUTING, one ROUTE_FAILED.
    await drive(orderId, (_status, health) => health === "STUCK", ROUTING_DEADLINE_S / 5 + 4);
    const stuck = await read(orderId);
    expect(stuck).toMatchObject({ status: "ROUTING", health: "STUCK" });
    expect(stuck.timeline.filter((entry) => entry.kind === "ROUTE_FAILED")).toHaveLength(1);

    const order = await drive(orderId, (status) => status === "DELIVERED" || status === "RETURNED");
    expect(order).toMatchObject({ status: "DELIVERED", health: "HEALTHY" });
    const story = await kinds(orderId);
    expect(story.slice(story.indexOf("ROUTE_SENT"))).toEqual([
      "ROUTE_SENT",
      "ROUTE_FAILED",
      "STUCK",
      "ROUTE_REFUNDED",
      "ROUTE_SENT",
      "ROUTE_COMPLETED",
      "EXCHANGED",
      "DELIVERED",
    ]);
    expect(sent?.txHash).toBeDefined();
    expect(await refundTransfer(orderId)).toBeDefined();
  });

  it("a FAILED route whose refund LI.FI never names: STUCK, the operator books the refund transaction it found, the order routes again and is DELIVERED", async () => {
    if (!h.network) throw new Error("no chains");
    const intermediate = sandboxChainOf(h.network, "intermediate");
    h.vendors?.aggregator.failNextRouteSilently(intermediate.chainId);
    const orderId = await burned("46.10");
    const stuck = await drive(orderId, (_status, health) => health === "STUCK");
    expect(stuck).toMatchObject({ status: "ROUTING", health: "STUCK" });
    expect(stuck.timeline.filter((entry) => entry.kind === "ROUTE_FAILED")).toEqual([
      expect.objectContaining({ kind: "ROUTE_FAILED" }),
    ]);

    // The refund the aggregator made on chain, as the operator would find it: the router's RouteRefunded.
    const reader = sandboxPublicClient(intermediate);
    const sent = stuck.timeline.find((entry) => entry.kind === "ROUTE_SENT");
    const routeReceipt = await reader.getTransactionReceipt({ hash: sent?.txHash as Hex });
    const [requested] = parseEventLogs({
      abi: sandboxRouterAbi,
      eventName: "RouteRequested",
      logs: routeReceipt.logs,
    });
    const [refund] = await reader.getLogs({
      address: intermediate.contracts.router as Hex,
      event: getAbiItem({ abi: sandboxRouterAbi, name: "RouteRefunded" }),
      args: { routeId: requested?.args.routeId },
      fromBlock: 0n,
    });
    const refundHash = refund?.transactionHash;
    if (!refundHash) throw new Error("the aggregator made no refund");
    const book = (body: unknown, id = orderId) =>
      adminRequest(h, `/admin/settlements/orders/${id}/route-refund`, { method: "POST", body });
    const field = async (res: Response) =>
      (await errorOf(res, 400)).problems?.map((p) => [p.field, p.problem]);
    expect(await field(await book({ txHash: "0x12", reason: "x" }))).toEqual([
      ["body.txHash", expect.stringContaining("transaction hash")],
    ]);
    expect(await field(await book({ txHash: `0x${"ab".repeat(32)}`, reason: "ticket 1" }))).toEqual([
      ["body.txHash", expect.stringContaining("not mined")],
    ]);
    // The order's own route transaction is the service's payment, never a refund.
    expect(
      await field(
        await book({ txHash: stuck.timeline.find((e) => e.kind === "ROUTE_SENT")?.txHash, reason: "x" }),
      ),
    ).toEqual([["body.txHash", expect.stringContaining("already booked")]]);
    expect((await errorOf(await book({ txHash: refundHash, reason: "x" }, "ord_missing"), 404)).code).toBe(
      "ORDER_NOT_FOUND",
    );
    // USDC that reached the shared settlement account from elsewhere (a top-up, another order's mint)
    // is no refund of this route, whatever the operator says.
    const faucet = await partnerRequest(h, tenant, "/api/integrations/sandbox/faucet", {
      method: "POST",
      body: {
        address: h.deps.settlement.accountAddress,
        chainRole: "intermediate",
        token: "USDC",
        amount: "5000",
      },
    });
    const { mintTxHash } = await bodyOf(faucet, sandboxFaucet, 200);
    expect(await field(await book({ txHash: mintTxHash, reason: "looked like the refund" }))).toEqual([
      ["body.txHash", expect.stringContaining("not the aggregator's")],
    ]);
    expect((await read(orderId)).status).toBe("ROUTING");

    const booked = await book({ txHash: refundHash, reason: "LI.FI support ticket 4711" });
    expect(booked.status, await booked.clone().text()).toBe(200);
    expect(await booked.json()).toMatchObject({ orderId, status: "MINTED", txHash: refundHash });
    // Booked once: asked again, the order has no failed route any more.
    expect((await errorOf(await book({ txHash: refundHash, reason: "again" }), 409)).code).toBe(
      "ROUTE_NOT_FAILED",
    );

    const order = await drive(orderId, (status) => status === "DELIVERED" || status === "RETURNED");
    expect(order).toMatchObject({ status: "DELIVERED", health: "HEALTHY" });
    const refunded = order.timeline.find((entry) => entry.kind === "ROUTE_REFUNDED");
    expect(refunded?.txHash).toBe(refundHash);
    expect(await refundTransfer(orderId)).toBeDefined();
  });
});
