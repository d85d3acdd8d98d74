import { eq } from "drizzle-orm";
import { type Hex, padHex, parseEventLogs, sliceHex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  repriceMentoPool,
  sandboxChainOf,
  sandboxPublicClient,
  sandboxRouterAbi,
  WAD,
} from "../../dev/chains";
import { erc20Abi } from "../../lib/kernel/chain/abis";
import { orderCommitment } from "../../lib/kernel/chain/forwarding";
import { orderScope } from "../../lib/settlement/accounts";
import { observeBridge } from "../../lib/settlement/legs/bridge";
import type { LegProviders } from "../../lib/settlement/legs/ports";
import { setAsideRefunded } from "../../lib/settlement/legs/route-refund";
import { settlementChains } from "../../lib/settlement/pricing/prices";
import { advanceOrder } from "../../lib/settlement/progress/advance";
import { loadOrderState } from "../../lib/settlement/progress/state";
import { lifiStatus } from "../../lib/vendors/lifi/lifi-status";
import { settlementTransactions, type TransactionStatus } from "../../schema";
import type { Harness } from "../harness/app";
import { placeOrder, sendPlan, submitBurn } from "../harness/burns";
import { quietContext } from "../harness/context";
import { orderEvents, orderPayments, orderRow, readOrder, settlementSuite } from "../harness/settlement";
import type { Tenant } from "../harness/tenants";

/**
 * The aggregator's leg when the aggregator does not simply deliver, driven by mock mode's test
 * amounts: `.74` the first route is refunded (routed again, DELIVERED; or RETURNED when the floor no
 * longer holds), `.75` USDC arrives instead of USDm (exchanged through Mento, DELIVERED).
 */

describe("settlement through the aggregator's failures", () => {
  let h: Harness;
  let tenant: Tenant;
  beforeAll(async () => {
    ({ h, tenant } = await settlementSuite());
  }, 60_000);
  afterAll(() => h.close());

  const chain = (role: "source" | "intermediate" | "destination") => {
    if (!h.network) throw new Error("no chains");
    return sandboxChainOf(h.network, role);
  };
  const read = (orderId: string) => readOrder(h, tenant, orderId);
  const row = (orderId: string) => orderRow(h, orderId);
  const paymentsOf = (orderId: string) => orderPayments(h, orderId);
  const eventsOf = (orderId: string) => orderEvents(h, orderId);

  async function burned(amount: string) {
    const placed = await placeOrder(h, tenant, undefined, amount);
    expect((await submitBurn(h, tenant, placed.orderId, await sendPlan(h, placed))).status).toBe(200);
    return placed;
  }
  async function drive(orderId: string, until: (status: string) => boolean, polls = 50) {
    for (let poll = 0; poll < polls && !until((await row(orderId))?.status ?? ""); poll++) {
      await h.jobs.drain();
      h.clock.advance(5_000);
    }
    return read(orderId);
  }
  const final = (status: string) => status === "DELIVERED" || status === "RETURNED";

  it(".74: the aggregator refunds the route; the order is MINTED again, routes afresh, and is DELIVERED", async () => {
    const placed = await burned("45.74");
    const order = await drive(placed.orderId, final);
    expect(order).toMatchObject({ status: "DELIVERED", health: "HEALTHY" });
    expect(order.timeline.map((entry) => entry.kind)).toEqual([
      "ORDER_CREATED",
      "BURN_VERIFIED",
      "ATTESTATION_REQUESTED",
      "ATTESTED",
      "FORWARDED_MINT",
      "ROUTE_SENT",
      "ROUTE_REFUNDED",
      "ROUTE_SENT",
      "ROUTE_COMPLETED",
      "EXCHANGED",
      "DELIVERED",
    ]);
    // Two routes, each paid once: the refunded one kept apart, the second the live "route".
    const purposes = (await paymentsOf(placed.orderId)).map((payment) => payment.purpose).sort();
    expect(purposes).toHaveLength(4);
    expect(purposes.filter((purpose) => purpose.startsWith("route:refunded:"))).toHaveLength(1);
    expect(purposes.filter((purpose) => purpose === "route")).toHaveLength(1);

    // Each route carries the order's commitment (its first 20 bytes: LI.FI's referrer, which the
    // aggregator writes into the transaction it builds), and the refund is a real USDC mint to the account.
    const [first, second] = order.timeline.filter((entry) => entry.kind === "ROUTE_SENT");
    const reader = sandboxPublicClient(chain("intermediate"));
    for (const sent of [first, second]) {
      const receipt = await reader.getTransactionReceipt({ hash: sent?.txHash as Hex });
      const [request] = parseEventLogs({
        abi: sandboxRouterAbi,
        eventName: "RouteRequested",
        logs: receipt.logs,
      });
      expect(request?.args.memo).toBe(
        padHex(sliceHex(orderCommitment(placed.orderId), 0, 20), { dir: "right" }),
      );
    }
    const refund = order.timeline.find((entry) => entry.kind === "ROUTE_REFUNDED");
    const refundReceipt = await reader.getTransactionReceipt({ hash: refund?.txHash as Hex });
    const [minted] = parseEventLogs({ abi: erc20Abi, eventName: "Transfer", logs: refundReceipt.logs });
    expect(minted?.args.to).toBe(h.deps.settlement.accountAddress);
  });

  it("sets aside every version of a refunded route (a fee replacement's dropped one too), so the next route never finds the refunded hash under its purpose", async () => {
    const { orderId } = await placeOrder(h, tenant);
    const version = (id: string, status: TransactionStatus, nonce: number) => ({
      id,
      orderId,
      purpose: "route",
      chainId: 31332,
      fromAddress: "0x0000000000000000000000000000000000000001",
      nonce,
      hash: `0x${id.padStart(64, "0")}`,
      raw: "0x",
      status,
      createdAt: h.clock.now(),
      updatedAt: h.clock.now(),
    });
    // The replaced original first, as the database may well return it.
    await h.database.db
      .insert(settlementTransactions)
      .values([version("a1", "dropped", 900_001), version("a2", "success", 900_001)]);
    await setAsideRefunded(h.database.db, orderId, "route");
    const rows = await h.database.db
      .select({ id: settlementTransactions.id, purpose: settlementTransactions.purpose })
      .from(settlementTransactions)
      .where(eq(settlementTransactions.orderId, orderId));
    expect(rows.map((r) => r.purpose).sort()).toEqual(["route:refunded:a2", "route:refunded:a2"]);
  });

  it(".74 when the floor no longer holds after the refund: the service returns the money (RETURNED)", async () => {
    const destination = chain("destination");
    const placed = await burned("46.74");
    await drive(placed.orderId, (status) => status === "ROUTING");
    try {
      // Mento now gives 5% fewer COPm than quoted: a fresh route misses the 3% floor.
      await repriceMentoPool(destination, "USDm/COPm", { rate: 3_705n * WAD, spread: 25n * 10n ** 14n });
      const order = await drive(placed.orderId, final);
      expect(order).toMatchObject({ status: "RETURNED", health: "HEALTHY" });
      const kinds = order.timeline.map((entry) => entry.kind);
      expect(kinds.slice(5)).toEqual([
        "ROUTE_SENT",
        "ROUTE_REFUNDED",
        "RETURN_REQUESTED",
        "RETURN_BURNED",
        "RETURNED",
      ]);
      const decided = (await eventsOf(placed.orderId)).find((event) => event.kind === "RETURN_REQUESTED");
      expect(decided?.detail).toMatchObject({ by: "service" });
      expect(String(decided?.detail?.reason)).toMatch(/below the floor/);
      // Everything came back but Circle's two forwarding fees: the route's USDC was refunded in full.
      const returned = (await eventsOf(placed.orderId)).find((event) => event.kind === "RETURNED");
      expect(BigInt(String(returned?.detail?.amount))).toBe(placed.totalDebit - 400_000n);
    } finally {
      await repriceMentoPool(destination, "USDm/COPm", { rate: 3_900n * WAD, spread: 25n * 10n ** 14n });
    }
  });

  it(".75: the aggregator delivers USDC instead of USDm; the account exchanges it through Mento and the order is DELIVERED", async () => {
    const placed = await burned("47.75");
    const order = await drive(placed.orderId, final);
    expect(order).toMatchObject({ status: "DELIVERED", health: "HEALTHY" });
    const completed = (await eventsOf(placed.orderId)).find((event) => event.kind === "ROUTE_COMPLETED");
    const partial = completed?.detail?.partial as { token: string; amount: string; conversionTxHash: Hex };
    expect(partial.token).toBe(chain("destination").contracts.usdc);
    const purposes = (await paymentsOf(placed.orderId)).map((payment) => payment.purpose).sort();
    expect(purposes).toEqual(["conversion", "delivery", "exchange", "route"]);
    // The conversion's USDm is what the COPm exchange spent.
    const exchanged = (await eventsOf(placed.orderId)).find((event) => event.kind === "EXCHANGED");
    expect(exchanged?.detail?.usdmIn).toBe(completed?.detail?.receivedUsdm);
  });

  it(".75 with two jobs at once: the one that read the order before the other claimed and spent the delivery leaves it be; DELIVERED and HEALTHY", async () => {
    const placed = await burned("49.75");
    await drive(placed.orderId, (status) => status === "ROUTING");
    // What a job read before another one, delivered with the same message, advanced the order.
    const ctx = quietContext(h);
    const stale = await loadOrderState(ctx, placed.orderId);
    if (!stale) throw new Error("no order");
    expect(await drive(placed.orderId, final)).toMatchObject({ status: "DELIVERED", health: "HEALTHY" });
    const chains = settlementChains(ctx.chains, stale.order.status, stale.order.execution.chainId);
    await observeBridge(orderScope(ctx, stale.order), stale, chains);
    const order = await read(placed.orderId);
    expect(order.timeline.map((entry) => entry.kind)).not.toContain("STUCK");
    expect(order).toMatchObject({ status: "DELIVERED", health: "HEALTHY" });
    const purposes = (await paymentsOf(placed.orderId)).map((payment) => payment.purpose).sort();
    expect(purposes).toEqual(["conversion", "delivery", "exchange", "route"]);
  });

  it(".80: the aggregator delivers USDT instead of USDm; the account exchanges it through Mento's USDm/USDT pool and the order is DELIVERED", async () => {
    const placed = await burned("48.80");
    const order = await drive(placed.orderId, final);
    expect(order).toMatchObject({ status: "DELIVERED", health: "HEALTHY" });
    const completed = (await eventsOf(placed.orderId)).find((event) => event.kind === "ROUTE_COMPLETED");
    const partial = completed?.detail?.partial as {
      token: string;
      symbol: string;
      amount: string;
      conversionTxHash: Hex;
    };
    expect(partial).toMatchObject({ token: chain("destination").contracts.usdt, symbol: "USDT" });
    // The conversion spent exactly the USDT that arrived, and its USDm is what the COPm exchange spent.
    const receipt = await sandboxPublicClient(chain("destination")).getTransactionReceipt({
      hash: partial.conversionTxHash,
    });
    const spent = parseEventLogs({ abi: erc20Abi, eventName: "Transfer", logs: receipt.logs }).find(
      (log) => log.address.toLowerCase() === chain("destination").contracts.usdt?.toLowerCase(),
    );
    expect(spent?.args.value.toString()).toBe(partial.amount);
    const exchanged = (await eventsOf(placed.orderId)).find((event) => event.kind === "EXCHANGED");
    expect(exchanged?.detail?.usdmIn).toBe(completed?.detail?.receivedUsdm);
    // The receipt shows the route ending in USDT and its conversion to USDm.
    const legs = order.receipt.legs.filter((leg) => leg.leg === "route" || leg.leg === "conversion");
    expect(legs.map((leg) => [leg.leg, leg.tokenIn, leg.tokenOut])).toEqual([
      ["route", "USDC", "USDT"],
      ["conversion", "USDT", "USDm"],
    ]);
  });
});

/**
 * LI.FI's word is not money: a status that names the wrong token, the wrong amount or a refund as a
 * failure. The aggregator's answers are rewritten on the wire (what LI.FI could send), and the
 * service must book only what the named receipt's Transfer shows.
 */
describe("settlement when the aggregator's report is not what arrived", () => {
  let h: Harness;
  let tenant: Tenant;
  beforeAll(async () => {
    ({ h, tenant } = await settlementSuite());
  }, 60_000);
  afterAll(() => h.close());

  type StatusJson = { status: string; substatus?: string; receiving?: { amount?: string } };
  /** The production status adapter over the local aggregator, its answers rewritten by `rewrite`. */
  function reporting(rewrite: (answer: StatusJson) => StatusJson) {
    const base = quietContext(h);
    const bridge = lifiStatus({
      baseUrl: h.vendors?.aggregator.url as string,
      fetch: async (url, init) => {
        const response = await fetch(url, init);
        const body = JSON.stringify(rewrite((await response.json()) as StatusJson));
        return { status: response.status, text: async () => body };
      },
    });
    const legs: LegProviders = { ...base.providers.legs, bridge };
    return { ...base, providers: { ...base.providers, legs } };
  }
  async function driveWith(ctx: ReturnType<typeof reporting>, orderId: string, polls = 40) {
    for (let poll = 0; poll < polls; poll++) {
      const status = (await orderRow(h, orderId))?.status;
      if (status === "DELIVERED" || status === "RETURNED") break;
      await advanceOrder(ctx, orderId);
      h.clock.advance(5_000);
    }
    return readOrder(h, tenant, orderId);
  }
  async function burned(amount: string) {
    const placed = await placeOrder(h, tenant, undefined, amount);
    expect((await submitBurn(h, tenant, placed.orderId, await sendPlan(h, placed))).status).toBe(200);
    h.jobs.loseAll();
    return placed;
  }

  it("a delivery of USDC reported DONE/COMPLETED is a partial delivery: converted through Mento, DELIVERED", async () => {
    const placed = await burned("52.75");
    const order = await driveWith(
      reporting((answer) =>
        answer.substatus === "PARTIAL" ? { ...answer, substatus: "COMPLETED" } : answer,
      ),
      placed.orderId,
    );
    expect(order).toMatchObject({ status: "DELIVERED", health: "HEALTHY" });
    const completed = (await orderEvents(h, placed.orderId)).find(
      (event) => event.kind === "ROUTE_COMPLETED",
    );
    const arrived = await transferTo(h, completed?.txHash as Hex, "destination", "usdc");
    expect(completed?.detail?.partial).toMatchObject({ amount: arrived.toString() });
    expect(arrived).toBeGreaterThan(50_000_000n);
  });

  it("a delivery reported at twice what arrived books what the Transfer shows, and spends only that", async () => {
    const placed = await burned("53");
    const order = await driveWith(
      reporting((answer) =>
        answer.status === "DONE" && answer.receiving?.amount
          ? {
              ...answer,
              receiving: { ...answer.receiving, amount: String(BigInt(answer.receiving.amount) * 2n) },
            }
          : answer,
      ),
      placed.orderId,
    );
    expect(order).toMatchObject({ status: "DELIVERED", health: "HEALTHY" });
    const events = await orderEvents(h, placed.orderId);
    const completed = events.find((event) => event.kind === "ROUTE_COMPLETED");
    const arrived = await transferTo(h, completed?.txHash as Hex, "destination", "usdm");
    expect(completed?.detail).toMatchObject({
      receivedUsdm: arrived.toString(),
      reportedAmount: (arrived * 2n).toString(),
    });
    expect(events.find((event) => event.kind === "EXCHANGED")?.detail?.usdmIn).toBe(arrived.toString());
  });

  it("a refund reported FAILED/REFUNDED is a refund: the order is MINTED again, routes afresh, DELIVERED", async () => {
    const placed = await burned("54.74");
    const order = await driveWith(
      reporting((answer) => (answer.substatus === "REFUNDED" ? { ...answer, status: "FAILED" } : answer)),
      placed.orderId,
    );
    expect(order).toMatchObject({ status: "DELIVERED", health: "HEALTHY" });
    const kinds = order.timeline.map((entry) => entry.kind);
    expect(kinds).toContain("ROUTE_REFUNDED");
    expect(kinds.filter((kind) => kind === "ROUTE_SENT")).toHaveLength(2);
  });
});

/** What a transaction's Transfer of a token paid the settlement account, as the chain says. */
async function transferTo(
  h: Harness,
  hash: Hex,
  role: "intermediate" | "destination",
  token: "usdc" | "usdm",
): Promise<bigint> {
  if (!h.network) throw new Error("no chains");
  const chain = sandboxChainOf(h.network, role);
  const receipt = await sandboxPublicClient(chain).getTransactionReceipt({ hash });
  const [transfer] = parseEventLogs({ abi: erc20Abi, eventName: "Transfer", logs: receipt.logs }).filter(
    (log) =>
      log.address.toLowerCase() === chain.contracts[token]?.toLowerCase() &&
      log.args.to.toLowerCase() === h.deps.settlement.accountAddress?.toLowerCase(),
  );
  if (!transfer) throw new Error(`no ${token} Transfer to the settlement account in ${hash}`);
  return transfer.args.value;
}
