import { eq } from "drizzle-orm";
import { type Hex, parseAbi } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandboxChainOf, sandboxPublicClient } from "../../dev/chains";
import { erc20Abi } from "../../lib/kernel/chain/abis";
import { runSweep } from "../../lib/kernel/sweep";
import type { FaultInjector } from "../../lib/settlement/payments";
import { advanceOrder } from "../../lib/settlement/progress/advance";
import { markOverdueOrders } from "../../lib/settlement/progress/sweep-hooks";
import { settlementQuotes } from "../../schema";
import type { Harness } from "../harness/app";
import { errorOf } from "../harness/bodies";
import { type PlacedOrder, placeOrder, sendPlan, sourceUsdcOf, submitBurn } from "../harness/burns";
import { quietContext } from "../harness/context";
import { orderEvents, orderPayments, orderRow, readOrder, settlementSuite } from "../harness/settlement";
import { adminRequest, type Tenant } from "../harness/tenants";

/**
 * Returns from the destination chain: an order whose USDm reached Celo but will not deliver its
 * floor sends the USDm back to USDC on the intermediate chain through the aggregator, then burns it
 * back to the user's source address over CCTP. `.77` moves Mento's rate below the order's floor for
 * longer than its retry window (the ROUTED deadline), so the service returns it on its own; the
 * operator can return an order held at ROUTED the same way.
 */

const SLOW_LEG_MS = 120_000;
const ROUTED_DEADLINE_S = 60;
const POLL_MS = 5_000;

class Crash extends Error {}

const oracleAbi = parseAbi([
  "function medianRate(address rateFeedId) view returns (uint256, uint256)",
  "function sortedOracles() view returns (address)",
  "struct Fraction { uint256 value; }",
  "struct PoolConfig { Fraction spread; address referenceRateFeedID; uint256 referenceRateResetFrequency; uint256 minimumReports; uint256 stablePoolResetSize; }",
  "struct PoolExchange { address asset0; address asset1; address pricingModule; uint256 bucket0; uint256 bucket1; uint256 lastBucketUpdate; PoolConfig config; }",
  "function getPoolExchange(bytes32 exchangeId) view returns (PoolExchange exchange)",
]);

describe("settlement returns from the destination chain", () => {
  let h: Harness;
  let tenant: Tenant;
  beforeAll(async () => {
    ({ h, tenant } = await settlementSuite({
      slowLegMs: SLOW_LEG_MS,
      deadlines: { ROUTED: ROUTED_DEADLINE_S },
    }));
  }, 60_000);
  afterAll(() => h.close());

  const chain = (role: "source" | "sourceB" | "intermediate" | "destination") => {
    if (!h.network) throw new Error("no chains");
    return sandboxChainOf(h.network, role);
  };
  const row = (orderId: string) => orderRow(h, orderId);
  const sourceUsdc = (holder: Hex, key: "source" | "sourceB" = "source") => sourceUsdcOf(h, holder, key);
  /** The USDm/COPm feed's reported rate numerator: one WAD unless `.77`'s lever is pulled. */
  async function copmRateNumerator(): Promise<bigint> {
    const destination = chain("destination");
    const client = sandboxPublicClient(destination);
    const manager = destination.contracts.exchangeProvider as Hex;
    const exchange = destination.exchanges?.find(
      ({ tokens }) =>
        tokens.includes(destination.contracts.usdm as Hex) &&
        tokens.includes(destination.contracts.copm as Hex),
    );
    if (!exchange) throw new Error("no USDm/COPm pool");
    const [pool, oracles] = await Promise.all([
      client.readContract({
        address: manager,
        abi: oracleAbi,
        functionName: "getPoolExchange",
        args: [exchange.exchangeId],
      }),
      client.readContract({ address: manager, abi: oracleAbi, functionName: "sortedOracles" }),
    ]);
    const [numerator] = await client.readContract({
      address: oracles,
      abi: oracleAbi,
      functionName: "medianRate",
      args: [pool.config.referenceRateFeedID],
    });
    return numerator;
  }
  async function poll(orderId: string, until: (status: string) => boolean, polls: number) {
    for (let i = 0; i < polls && !until((await row(orderId))?.status ?? ""); i++) {
      await h.jobs.drain();
      await runSweep(quietContext(h), [markOverdueOrders]);
      await h.vendors?.aggregator.tick();
      h.clock.advance(POLL_MS);
    }
    return readOrder(h, tenant, orderId);
  }
  const returnIt = (orderId: string) =>
    adminRequest(h, `/admin/settlements/orders/${orderId}/return`, {
      method: "POST",
      body: { reason: "the partner asked to cancel" },
    });

  /**
   * Every unit of a destination return, from the timeline's figures: the user's burn = Circle's fee
   * in + the route that left − the USDC the way back brought + Circle's fee back + what the user got.
   */
  async function expectAccounted(
    placed: PlacedOrder,
    balanceBefore: bigint,
    key: "source" | "sourceB" = "source",
  ) {
    const events = await orderEvents(h, placed.orderId);
    const detail = (kind: string) => events.find((event) => event.kind === kind)?.detail ?? {};
    const [quote] = await h.database.db
      .select()
      .from(settlementQuotes)
      .where(eq(settlementQuotes.id, placed.quoteId));
    if (!quote) throw new Error("no quote");
    const feeIn = BigInt(String(detail("FORWARDED_MINT").feeCollected));
    const cameBack = BigInt(String(detail("RETURN_ROUTE_COMPLETED").receivedUsdc));
    const feeBack = BigInt(String(detail("RETURNED").feeCollected));
    const received = BigInt(String(detail("RETURNED").amount));
    expect(feeIn + quote.routeInputUsdc - cameBack + feeBack + received).toBe(placed.totalDebit);
    // The aggregator kept 10 bps each way (and the 18-decimal dust of the way back), nothing more.
    const lost = quote.routeInputUsdc - cameBack;
    expect(lost > 0n && lost <= (quote.routeInputUsdc * 20n) / 10_000n + 1n).toBe(true);
    // The user's source balance, read before the burn: down by what was burned, up by what came back.
    expect((await sourceUsdc(placed.user.address, key)) - balanceBefore).toBe(received - placed.totalDebit);
    // Each live payment once (a refunded way back is kept aside under another name).
    const payments = (await orderPayments(h, placed.orderId)).filter(
      (payment) => payment.status === "success" && !payment.purpose.includes(":"),
    );
    expect(payments.map((payment) => payment.purpose).sort()).toEqual(["return", "return-route", "route"]);
  }

  // From the second source chain (Avalanche-like, domain 1): the return goes back to that chain.
  it(".77 from the second source chain: Mento stays below the floor past the retry window, so the service returns the USDm to the source address on that chain", async () => {
    const placed = await placeOrder(h, tenant, undefined, "57.77", "sourceB");
    const before = await sourceUsdc(placed.user.address, "sourceB");
    const beforeOnDefault = await sourceUsdc(placed.user.address);
    expect((await submitBurn(h, tenant, placed.orderId, await sendPlan(h, placed))).status).toBe(200);

    let order = await poll(placed.orderId, (status) => status === "ROUTED", 12);
    order = await poll(placed.orderId, () => false, 2);
    expect(order).toMatchObject({ status: "ROUTED", fundsStatus: "USDM_ON_DESTINATION" });
    expect(await copmRateNumerator()).not.toBe(10n ** 18n);
    expect(order.timeline.filter((entry) => entry.kind === "EXCHANGE_DELAYED")).toEqual([
      expect.objectContaining({ reason: "below_floor" }),
    ]);

    order = await poll(
      placed.orderId,
      (status) => status === "RETURNED",
      (ROUTED_DEADLINE_S * 1000) / POLL_MS + 30,
    );
    expect(order).toMatchObject({ status: "RETURNED", fundsStatus: "RETURNED_TO_SOURCE", health: "HEALTHY" });
    const kinds = order.timeline.map((entry) => entry.kind);
    expect(kinds.slice(kinds.indexOf("ROUTE_COMPLETED"))).toEqual([
      "ROUTE_COMPLETED",
      "EXCHANGE_DELAYED",
      ...(kinds.includes("STUCK") ? ["STUCK"] : []),
      "RETURN_REQUESTED",
      "RETURN_ROUTE_SENT",
      "RETURN_ROUTE_COMPLETED",
      "RETURN_BURNED",
      "RETURNED",
    ]);
    const byKind = (kind: string) => order.timeline.find((entry) => entry.kind === kind);
    expect(byKind("RETURN_ROUTE_SENT")).toMatchObject({
      status: "RETURNING",
      fundsStatus: "RETURNING_TO_INTERMEDIATE",
      chainId: chain("destination").chainId,
    });
    expect(byKind("RETURN_ROUTE_COMPLETED")).toMatchObject({
      fundsStatus: "USDC_ON_INTERMEDIATE",
      chainId: chain("intermediate").chainId,
    });
    const decided = (await orderEvents(h, placed.orderId)).find((event) => event.kind === "RETURN_REQUESTED");
    expect(decided?.detail).toMatchObject({ by: "service" });
    // Minted back on the order's own source chain, nothing on the default one.
    expect(byKind("RETURNED")).toMatchObject({ chainId: chain("sourceB").chainId });
    expect(byKind("BURN_VERIFIED")).toMatchObject({ chainId: chain("sourceB").chainId });
    expect(order.execution).toMatchObject({ chain: "Sandbox Source B", chainId: chain("sourceB").chainId });
    await expectAccounted(placed, before, "sourceB");
    expect(await sourceUsdc(placed.user.address)).toBe(beforeOnDefault);

    // The market moves back once the window has passed.
    await poll(placed.orderId, () => false, SLOW_LEG_MS / POLL_MS + 2);
    expect(await copmRateNumerator()).toBe(10n ** 18n);
  });

  it("a return decided while the route is in flight waits for it, and a way back the aggregator refunds is tried afresh", async () => {
    const placed = await placeOrder(h, tenant, undefined, "33");
    const before = await sourceUsdc(placed.user.address);
    expect((await submitBurn(h, tenant, placed.orderId, await sendPlan(h, placed))).status).toBe(200);
    await poll(placed.orderId, (status) => status === "ROUTING", 12);
    expect((await returnIt(placed.orderId)).status).toBe(202);
    h.jobs.loseAll();

    // The aggregator gives up on the first way back: it refunds the USDm on the destination chain.
    h.vendors?.aggregator.refundNextRoute(chain("destination").chainId);
    for (let attempt = 0; attempt < 60 && (await row(placed.orderId))?.status !== "RETURNED"; attempt++) {
      await advanceOrder(quietContext(h), placed.orderId);
      h.clock.advance(POLL_MS);
    }
    const order = await readOrder(h, tenant, placed.orderId);
    expect(order).toMatchObject({ status: "RETURNED", health: "HEALTHY" });
    const kinds = order.timeline.map((entry) => entry.kind);
    expect(kinds.slice(kinds.indexOf("RETURN_REQUESTED"))).toEqual([
      "RETURN_REQUESTED",
      "ROUTE_COMPLETED",
      "RETURN_ROUTE_SENT",
      "RETURN_ROUTE_REFUNDED",
      "RETURN_ROUTE_SENT",
      "RETURN_ROUTE_COMPLETED",
      "RETURN_BURNED",
      "RETURNED",
    ]);
    expect(order.timeline.find((entry) => entry.kind === "RETURN_ROUTE_REFUNDED")).toMatchObject({
      status: "ROUTED",
      fundsStatus: "USDM_ON_DESTINATION",
    });
    // The refunded way back is kept aside; the live one and everything else went out once.
    const purposes = (await orderPayments(h, placed.orderId)).map((payment) => payment.purpose).sort();
    expect(purposes.filter((purpose) => !purpose.startsWith("return-route:refunded:"))).toEqual([
      "return",
      "return-route",
      "route",
    ]);
    expect(purposes.filter((purpose) => purpose.startsWith("return-route:refunded:"))).toHaveLength(1);
    await expectAccounted(placed, before);
  });

  /** Returns an order decided while routing, each way back refunded by the aggregator, until the order ends or waits. */
  async function everyWayBackRefunded(
    placed: PlacedOrder,
    until: (status: string, health: string) => boolean,
    afterBurn?: () => Promise<void>,
  ) {
    expect((await submitBurn(h, tenant, placed.orderId, await sendPlan(h, placed))).status).toBe(200);
    await afterBurn?.();
    await poll(placed.orderId, (status) => status === "ROUTING", 12);
    expect((await returnIt(placed.orderId)).status).toBe(202);
    h.jobs.loseAll();
    return advanceUntil(placed, until);
  }
  async function advanceUntil(placed: PlacedOrder, until: (status: string, health: string) => boolean) {
    for (let attempt = 0; attempt < 80; attempt++) {
      const order = await row(placed.orderId);
      if (order && until(order.status, order.health)) break;
      const refunded = (await orderEvents(h, placed.orderId)).filter(
        (e) => e.kind === "RETURN_ROUTE_REFUNDED",
      );
      if (refunded.length < 3) h.vendors?.aggregator.refundNextRoute(chain("destination").chainId);
      await advanceOrder(quietContext(h), placed.orderId);
      h.clock.advance(POLL_MS);
    }
    return readOrder(h, tenant, placed.orderId);
  }
  const usdmOf = (holder: Hex) =>
    sandboxPublicClient(chain("destination")).readContract({
      address: chain("destination").contracts.usdm as Hex,
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [holder],
    });

  it("every way back refunded: the USDm goes to the user's own plain account on the destination chain (RETURNED_ON_DESTINATION)", async () => {
    const placed = await placeOrder(h, tenant, undefined, "34");
    const before = await usdmOf(placed.user.address);
    const order = await everyWayBackRefunded(placed, (status) => status === "RETURNED");
    expect(order).toMatchObject({
      status: "RETURNED",
      fundsStatus: "RETURNED_ON_DESTINATION",
      health: "HEALTHY",
    });
    const kinds = order.timeline.map((entry) => entry.kind);
    expect(kinds.filter((kind) => kind === "RETURN_ROUTE_REFUNDED")).toHaveLength(3);
    expect(kinds.at(-1)).toBe("RETURNED_ON_DESTINATION");
    const returned = order.timeline.at(-1);
    const held = (await orderEvents(h, placed.orderId))
      .filter((e) => e.kind === "RETURN_ROUTE_REFUNDED")
      .at(-1);
    // What the last refund brought back, all of it, to the user's address there: read on chain.
    expect((await usdmOf(placed.user.address)) - before).toBe(BigInt(String(held?.detail?.amount)));
    // The USDm on the destination chain, and what the order still held on the intermediate chain, both
    // to the user's address: nothing of a returned order is left behind.
    expect(order.receipt.legs.slice(-2)).toMatchObject([
      { leg: "return_on_destination", tokenOut: "USDm" },
      { leg: "return_remainder", tokenOut: "USDC" },
    ]);
    expect(order.receipt.residue).toEqual([]);
    expect(returned?.txHash).toBeDefined();
  });

  it("every way back refunded and the source address a contract there: STUCK until the operator names the address, then RETURNED_ON_DESTINATION to it", async () => {
    const placed = await placeOrder(h, tenant, undefined, "35");
    // The user's address holds code on the destination chain (a smart wallet of another factory, say).
    await sandboxPublicClient(chain("destination")).request({
      method: "hardhat_setCode" as never,
      params: [placed.user.address, "0x00"] as never,
    });
    const stuck = await everyWayBackRefunded(placed, (_status, health) => health === "STUCK");
    expect(stuck).toMatchObject({ status: "ROUTED", fundsStatus: "USDM_ON_DESTINATION", health: "STUCK" });
    const redirect = (body: unknown, orderId = placed.orderId) =>
      adminRequest(h, `/admin/settlements/orders/${orderId}/return-to`, { method: "POST", body });
    // Bad input names its field and changes nothing.
    expect((await errorOf(await redirect({ to: "0x123", reason: "x" }), 400)).problems?.[0]?.field).toBe(
      "body.to",
    );
    expect(
      (await errorOf(await redirect({ to: h.deps.settlement.accountAddress, reason: "x" }), 400))
        .problems?.[0]?.field,
    ).toBe("body.to");
    expect(
      (await errorOf(await redirect({ to: placed.user.address, reason: "x" }, "ord_missing"), 404)).code,
    ).toBe("ORDER_NOT_FOUND");
    const wallet = "0x90F79bf6EB2c4f870365E785982E1f101E93b906";
    const named = await redirect({ to: wallet, reason: "the user confirmed the address by signed message" });
    expect(named.status).toBe(202);
    const before = await usdmOf(wallet);
    const order = await advanceUntil(placed, (status) => status === "RETURNED");
    expect(order).toMatchObject({ status: "RETURNED", fundsStatus: "RETURNED_ON_DESTINATION" });
    const held = (await orderEvents(h, placed.orderId))
      .filter((e) => e.kind === "RETURN_ROUTE_REFUNDED")
      .at(-1);
    expect((await usdmOf(wallet)) - before).toBe(BigInt(String(held?.detail?.amount)));
    // Once sent, the address cannot be named again.
    expect((await errorOf(await redirect({ to: wallet, reason: "again" }), 409)).code).toBe(
      "ORDER_NOT_RETURNABLE",
    );
  });

  it("every way back refunded and the source address a contract on the source chain only (a smart wallet, no key): STUCK, nothing sent", async () => {
    const placed = await placeOrder(h, tenant, undefined, "36");
    const before = await usdmOf(placed.user.address);
    const stuck = await everyWayBackRefunded(
      placed,
      (_status, health) => health === "STUCK",
      async () => {
        // Code at the user's address on the source chain, once its burn is mined: the wallet has no key.
        await sandboxPublicClient(chain("source")).request({
          method: "hardhat_setCode" as never,
          params: [placed.user.address, "0x00"] as never,
        });
      },
    );
    expect(stuck).toMatchObject({ status: "ROUTED", fundsStatus: "USDM_ON_DESTINATION", health: "STUCK" });
    expect(await usdmOf(placed.user.address)).toBe(before);
  });

  it("the operator returns an order held at ROUTED (.76): its USDm goes back, a crash mid-way pays nothing twice", async () => {
    const placed = await placeOrder(h, tenant, undefined, "41.76");
    const before = await sourceUsdc(placed.user.address);
    expect((await submitBurn(h, tenant, placed.orderId, await sendPlan(h, placed))).status).toBe(200);
    let order = await poll(placed.orderId, (status) => status === "ROUTED", 12);
    expect(order.status).toBe("ROUTED");
    expect((await returnIt(placed.orderId)).status).toBe(202);

    h.jobs.loseAll();
    const fired: string[] = [];
    const faults: FaultInjector = {
      at(where, what) {
        if (what !== "return-route" || fired.includes(where)) return;
        fired.push(where);
        throw new Crash(`crash ${where} ${what}`);
      },
    };
    for (let attempt = 0; attempt < 60 && (await row(placed.orderId))?.status !== "RETURNED"; attempt++) {
      await advanceOrder(quietContext(h, faults), placed.orderId).catch((error: unknown) => {
        if (!(error instanceof Crash)) throw error;
      });
      h.clock.advance(POLL_MS);
    }
    expect(fired).toEqual(["after-record", "after-broadcast", "after-confirm"]);
    order = await readOrder(h, tenant, placed.orderId);
    expect(order).toMatchObject({ status: "RETURNED", fundsStatus: "RETURNED_TO_SOURCE" });
    const routesBack = (await orderPayments(h, placed.orderId)).filter(
      (payment) => payment.purpose === "return-route",
    );
    expect(routesBack.map((payment) => payment.status)).toEqual(["success"]);
    await expectAccounted(placed, before);
  });
});
