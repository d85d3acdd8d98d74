import { type Hex, parseEventLogs } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandboxChainOf, sandboxPublicClient } from "../../dev/chains";
import { erc20Abi } from "../../lib/kernel/chain/abis";
import type { LegProviders } from "../../lib/settlement/legs/ports";
import { advanceOrder } from "../../lib/settlement/progress/advance";
import { lifiStatus } from "../../lib/vendors/lifi/lifi-status";
import type { Harness } from "../harness/app";
import { placeOrder, sendPlan, submitBurn } from "../harness/burns";
import { quietContext } from "../harness/context";
import { orderEvents, orderPayments, orderRow, readOrder, settlementSuite } from "../harness/settlement";
import type { Tenant } from "../harness/tenants";

/**
 * Reports that name money already booked (from an attack on the first version of `.83`'s unwind):
 * a partial delivery's token is claimed by (transaction, log index) before it is spent, so two
 * orders whose reports name one delivery spend it once; a refund read once is not read again for
 * the same order's later route (both were spent or booked twice before).
 */
type StatusJson = {
  status: string;
  substatus?: string;
  sending?: { txHash?: string; chainId?: number };
  receiving?: {
    txHash?: string;
    amount?: string;
    chainId?: number;
    token?: { address?: string; chainId?: number };
  };
};

describe("aggregator reports naming money already booked", () => {
  let h: Harness;
  let tenant: Tenant;
  beforeAll(async () => {
    ({ h, tenant } = await settlementSuite());
  }, 60_000);
  afterAll(() => h.close());

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
  async function burned(amount: string) {
    const placed = await placeOrder(h, tenant, undefined, amount);
    expect((await submitBurn(h, tenant, placed.orderId, await sendPlan(h, placed))).status).toBe(200);
    h.jobs.loseAll();
    return placed;
  }

  it("a partial delivery two orders' reports name is spent once; the later order waits STUCK", async () => {
    if (!h.network) throw new Error("no chains");
    const destination = sandboxChainOf(h.network, "destination");
    const usdm = destination.contracts.usdm?.toLowerCase();
    const a = await burned("60.83");
    const b = await burned("61");

    // A: its route is paid in axlUSDC on chain, but A is told PENDING (the relayer paid when asked).
    let captured: StatusJson["receiving"];
    const hold = reporting((answer) => {
      if (answer.status === "DONE" && answer.substatus === "PARTIAL") {
        captured = answer.receiving;
        return {
          ...answer,
          status: "PENDING",
          substatus: "WAIT_DESTINATION_TRANSACTION",
          receiving: { chainId: answer.receiving?.chainId },
        };
      }
      return answer;
    });
    for (let poll = 0; poll < 40 && !captured; poll++) {
      await advanceOrder(hold, a.orderId);
      h.clock.advance(5_000);
    }
    expect(captured?.txHash, "A's axlUSDC delivered").toBeDefined();
    expect((await orderRow(h, a.orderId))?.status).toBe("ROUTING");

    // B: its own route delivered USDm; the aggregator's report names A's receiving transaction instead.
    const steal = reporting((answer) =>
      answer.status === "DONE" && answer.receiving?.token?.address?.toLowerCase() === usdm
        ? { ...answer, substatus: "PARTIAL", receiving: captured }
        : answer,
    );
    for (let poll = 0; poll < 40; poll++) {
      const row = await orderRow(h, b.orderId);
      if (row?.status === "DELIVERED" || row?.status === "RETURNED" || row?.health === "STUCK") break;
      await advanceOrder(steal, b.orderId);
      h.clock.advance(5_000);
    }
    const bEvents = await orderEvents(h, b.orderId);
    const bPayments = (await orderPayments(h, b.orderId)).map((p) => p.purpose);
    const bRefund = bEvents.find((e) => e.kind === "ROUTE_REFUNDED");
    // Then A, honestly told: its axlUSDC is gone.
    for (let poll = 0; poll < 20; poll++) {
      const row = await orderRow(h, a.orderId);
      if (row?.status === "DELIVERED" || row?.status === "RETURNED" || row?.health === "STUCK") break;
      await advanceOrder(quietContext(h), a.orderId);
      h.clock.advance(5_000);
    }
    const aRead = await readOrder(h, tenant, a.orderId);
    const report = {
      b: { kinds: bEvents.map((e) => e.kind), payments: bPayments, refund: bRefund?.detail },
      a: {
        status: aRead.status,
        health: aRead.health,
        kinds: aRead.timeline.map((e) => e.kind),
        stuck: (await orderEvents(h, a.orderId)).filter((e) => e.kind === "STUCK").map((e) => e.detail),
      },
    };
    // The unwind B sent spent the axlUSDC that A's route delivered.
    const unwind = (await orderPayments(h, b.orderId)).find((p) => p.purpose.startsWith("unwind"));
    if (unwind?.hash) {
      const receipt = await sandboxPublicClient(destination).getTransactionReceipt({
        hash: unwind.hash as Hex,
      });
      const spent = parseEventLogs({ abi: erc20Abi, eventName: "Transfer", logs: receipt.logs }).find(
        (log) => log.address.toLowerCase() === destination.contracts.bridgedUsdc?.toLowerCase(),
      );
      (report as Record<string, unknown>).bUnwindSpent = spent?.args.value.toString();
      (report as Record<string, unknown>).aDelivered = captured?.amount;
    }
    // The delivery is spent once: B, whose report named it first, claimed it (ROUTE_PARTIAL with its
    // transaction and log index) and unwound it; A, told of it afterwards, finds it booked and waits
    // STUCK for the operator instead of spending it again. Which of the two it belongs to the service
    // takes from the aggregator's report: proving the receiving transaction is the route's own (LI.FI's
    // transactionId, in the route's LiFiTransferStarted and the receiving LiFiTransferCompleted) is not
    // done yet (docs/settlement.md).
    const unwinds = (await orderPayments(h, a.orderId)).filter((p) => p.purpose.startsWith("unwind"));
    expect(unwinds, JSON.stringify(report)).toEqual([]);
    expect(report.a.health, JSON.stringify(report)).toBe("STUCK");
    expect(JSON.stringify(report.a.stuck)).toContain("already booked");
    expect((report as Record<string, unknown>).bUnwindSpent).toBe(captured?.amount);
    expect(bRefund?.detail).toMatchObject({ substatus: "PARTIAL_UNWOUND" });
  });

  it("one order's second route reported refunded by its first refund's transaction: the same Transfer is not booked twice", async () => {
    const a = await burned("62.74");
    let firstRefund: StatusJson["receiving"];
    const replay = reporting((answer) => {
      if (answer.substatus === "REFUNDED" && !firstRefund) firstRefund = answer.receiving;
      if (answer.status === "DONE" && answer.substatus === "COMPLETED" && firstRefund)
        return { ...answer, substatus: "REFUNDED", receiving: firstRefund };
      return answer;
    });
    for (let poll = 0; poll < 40; poll++) {
      const row = await orderRow(h, a.orderId);
      if (row?.status === "DELIVERED" || row?.status === "RETURNED" || row?.health === "STUCK") break;
      await advanceOrder(replay, a.orderId);
      h.clock.advance(5_000);
    }
    const events = await orderEvents(h, a.orderId);
    const refunds = events
      .filter((e) => e.kind === "ROUTE_REFUNDED")
      .map((e) => `${e.txHash}:${(e.detail as { logIndex?: number } | null)?.logIndex}`);
    const report = {
      kinds: events.map((e) => e.kind),
      refunds,
      payments: (await orderPayments(h, a.orderId)).map((p) => p.purpose),
      last: events.at(-1)?.detail,
    };
    expect(new Set(refunds).size, JSON.stringify(report)).toBe(refunds.length);
  });
});
