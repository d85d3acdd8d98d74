import { eq } from "drizzle-orm";
import { type Hex, parseAbi } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandboxChainOf, sandboxPublicClient, tradingLimitIdOf } from "../../dev/chains";
import { runSweep } from "../../lib/kernel/sweep";
import { markOverdueOrders } from "../../lib/settlement/progress/sweep-hooks";
import { settlementTransactions } from "../../schema";
import type { Harness } from "../harness/app";
import { placeOrder, sendPlan, submitBurn } from "../harness/burns";
import { quietContext } from "../harness/context";
import { orderRow, readOrder, settlementSuite } from "../harness/settlement";
import type { Tenant } from "../harness/tenants";

/**
 * `.76`: Mento's trading limit is exhausted when the order comes to exchange (the sandbox market
 * tightens the USDm/COPm pool's L0 with Mento's own Broker), and frees later (the mock-mode sweep
 * puts the pool's configuration back once the window passed). The order says why it waits, is
 * STUCK past its deadline, and is DELIVERED once Mento takes the trade; nothing is paid twice.
 * `.81`: Mento's own MedianDeltaBreaker halts the pool for the slow leg, and the same holds.
 */

const SLOW_LEG_MS = 120_000;
const ROUTED_DEADLINE_S = 60;

const limitConfigAbi = parseAbi([
  "function tradingLimitsConfig(bytes32 limitId) view returns (uint32 timestep0, uint32 timestep1, int48 limit0, int48 limit1, int48 limitGlobal, uint8 flags)",
]);

const breakerAbi = parseAbi([
  "struct Fraction { uint256 value; }",
  "struct PoolConfig { Fraction spread; address referenceRateFeedID; uint256 referenceRateResetFrequency; uint256 minimumReports; uint256 stablePoolResetSize; }",
  "struct PoolExchange { address asset0; address asset1; address pricingModule; uint256 bucket0; uint256 bucket1; uint256 lastBucketUpdate; PoolConfig config; }",
  "function breakerBox() view returns (address)",
  "function getPoolExchange(bytes32 exchangeId) view returns (PoolExchange)",
  "function getRateFeedTradingMode(address rateFeedID) view returns (uint8)",
]);

describe("settlement through Mento's trading limit and circuit breaker", () => {
  let h: Harness;
  let tenant: Tenant;
  beforeAll(async () => {
    ({ h, tenant } = await settlementSuite({
      slowLegMs: SLOW_LEG_MS,
      deadlines: { ROUTED: ROUTED_DEADLINE_S },
    }));
  }, 60_000);
  afterAll(() => h.close());

  const read = (orderId: string) => readOrder(h, tenant, orderId);
  const row = (orderId: string) => orderRow(h, orderId);
  async function usdmLimit0() {
    if (!h.network) throw new Error("no chains");
    const destination = sandboxChainOf(h.network, "destination");
    const exchange = destination.exchanges?.find(
      ({ tokens }) =>
        tokens.includes(destination.contracts.usdm as Hex) &&
        tokens.includes(destination.contracts.copm as Hex),
    );
    if (!exchange) throw new Error("no USDm/COPm pool");
    const [, , limit0] = await sandboxPublicClient(destination).readContract({
      address: destination.contracts.broker as Hex,
      abi: limitConfigAbi,
      functionName: "tradingLimitsConfig",
      args: [tradingLimitIdOf(exchange.exchangeId, destination.contracts.usdm as Hex)],
    });
    return limit0;
  }
  /** The BreakerBox's trading mode on the USDm/COPm pool's rate feed (0 open, 3 halted). */
  async function tradingMode() {
    if (!h.network) throw new Error("no chains");
    const destination = sandboxChainOf(h.network, "destination");
    const reader = sandboxPublicClient(destination);
    const manager = destination.contracts.exchangeProvider as Hex;
    const exchange = destination.exchanges?.find(
      ({ tokens }) =>
        tokens.includes(destination.contracts.usdm as Hex) &&
        tokens.includes(destination.contracts.copm as Hex),
    );
    if (!exchange) throw new Error("no USDm/COPm pool");
    const [box, pool] = await Promise.all([
      reader.readContract({ address: manager, abi: breakerAbi, functionName: "breakerBox" }),
      reader.readContract({
        address: manager,
        abi: breakerAbi,
        functionName: "getPoolExchange",
        args: [exchange.exchangeId],
      }),
    ]);
    return reader.readContract({
      address: box,
      abi: breakerAbi,
      functionName: "getRateFeedTradingMode",
      args: [pool.config.referenceRateFeedID],
    });
  }
  async function poll(orderId: string, polls: number) {
    for (let i = 0; i < polls && (await row(orderId))?.status !== "DELIVERED"; i++) {
      await h.jobs.drain();
      await runSweep(quietContext(h), [markOverdueOrders]);
      await h.vendors?.aggregator.tick();
      h.clock.advance(5_000);
    }
    return read(orderId);
  }

  it(".76: the exchange waits on Mento's trading limit (EXCHANGE_DELAYED), goes STUCK, and is DELIVERED once the limit frees", async () => {
    const before = await usdmLimit0();
    const placed = await placeOrder(h, tenant, undefined, "44.76");
    expect((await submitBurn(h, tenant, placed.orderId, await sendPlan(h, placed))).status).toBe(200);

    let order = await poll(placed.orderId, 8);
    expect(order.status).toBe("ROUTED");
    expect(await usdmLimit0()).toBe(1);
    expect(order.timeline.filter((entry) => entry.kind === "EXCHANGE_DELAYED")).toEqual([
      expect.objectContaining({ reason: "mento_trading_limit" }),
    ]);

    order = await poll(placed.orderId, (ROUTED_DEADLINE_S * 1000) / 5_000 + 2);
    expect(order).toMatchObject({ status: "ROUTED", health: "STUCK" });

    order = await poll(placed.orderId, SLOW_LEG_MS / 5_000 + 10);
    expect(order).toMatchObject({ status: "DELIVERED", health: "HEALTHY" });
    expect(await usdmLimit0()).toBe(before);
    // Said once, however often Mento refused; the exchange went out once.
    expect(order.timeline.filter((entry) => entry.kind === "EXCHANGE_DELAYED")).toHaveLength(1);
    const exchanges = (
      await h.database.db
        .select()
        .from(settlementTransactions)
        .where(eq(settlementTransactions.orderId, placed.orderId))
    ).filter((payment) => payment.purpose === "exchange");
    expect(exchanges.map((payment) => payment.status)).toEqual(["success"]);
  });

  it(".81: Mento's MedianDeltaBreaker trips on USDm/COPm; the exchange waits (EXCHANGE_HALTED), goes STUCK, and is DELIVERED once the BreakerBox resets", async () => {
    const placed = await placeOrder(h, tenant, undefined, "45.81");
    expect((await submitBurn(h, tenant, placed.orderId, await sendPlan(h, placed))).status).toBe(200);

    let order = await poll(placed.orderId, 8);
    expect(order.status).toBe("ROUTED");
    expect(await tradingMode()).toBe(3);
    expect(order.timeline.filter((entry) => entry.kind === "EXCHANGE_HALTED")).toEqual([
      expect.objectContaining({ reason: "mento_trading_halted" }),
    ]);

    order = await poll(placed.orderId, (ROUTED_DEADLINE_S * 1000) / 5_000 + 2);
    expect(order).toMatchObject({ status: "ROUTED", health: "STUCK" });
    expect(await tradingMode()).toBe(3);

    order = await poll(placed.orderId, SLOW_LEG_MS / 5_000 + 10);
    expect(order).toMatchObject({ status: "DELIVERED", health: "HEALTHY" });
    expect(await tradingMode()).toBe(0);
    // Said once, however often the pool was halted when the order looked; a normal order has none.
    expect(order.timeline.filter((entry) => entry.kind === "EXCHANGE_HALTED")).toHaveLength(1);
    const exchanges = (
      await h.database.db
        .select()
        .from(settlementTransactions)
        .where(eq(settlementTransactions.orderId, placed.orderId))
    ).filter((payment) => payment.purpose === "exchange");
    expect(exchanges.map((payment) => payment.status)).toEqual(["success"]);
  });
});
