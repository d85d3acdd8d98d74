import { eq, inArray } from "drizzle-orm";
import { type Hex, parseEventLogs } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandboxChainOf, sandboxPublicClient } from "../../dev/chains";
import { erc20Abi, tokenMessengerV2Abi } from "../../lib/kernel/chain/abis";
import { runSweep } from "../../lib/kernel/sweep";
import { advanceOrder } from "../../lib/settlement/advance";
import type { FaultInjector, FaultPoint } from "../../lib/settlement/recorded-transactions";
import { returnOrder } from "../../lib/settlement/return-request";
import { markOverdueOrders } from "../../lib/settlement/sweep-hooks";
import { sandboxRouteRequestAbi } from "../../lib/vendors/sandbox/leg-abis";
import { releaseSandboxMentoLimit } from "../../lib/vendors/sandbox/mento-market";
import { settlementEvents, settlementOrders, settlementQuotes, settlementTransactions } from "../../schema";
import { createHarness, type Harness } from "../harness/app";
import { type PlacedOrder, placeOrder, sendPlan, submitBurn } from "../harness/burns";
import { quietContext } from "../harness/context";
import { enableBurnPlan } from "../harness/settlement";
import { createTenant, type Tenant } from "../harness/tenants";

/**
 * A random mix of orders, each with a seeded failure (mock mode's test amounts .71 to .76, an
 * operator's return, or none) and a worker that crashes at random points of every payment, advanced
 * by two jobs at once per order, as QStash may deliver. Every order must end DELIVERED or RETURNED,
 * no payment be made twice, and each order's money be accounted for from the chains' own receipts:
 * USDC burned = Circle's fee in + USDC routed (net of refunds) + USDC burned back to the user +
 * the documented residue (a delivered order's service fee and the upfront fee Circle did not take).
 */

const ORDERS = 32;
const SEED = 20261125;
const SLOW_LEG_MS = 90_000;
const FAULT_ODDS = 0.15;

class Crash extends Error {}

/** A seeded generator, so a failure names a mix that can be run again. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state ^ (state >>> 15), 2246822507) + 3266489909) >>> 0;
    state = (Math.imul(state ^ (state >>> 13), 3266489909) + 2246822507) >>> 0;
    return state / 2 ** 32;
  };
}

type Failure = ".71" | ".72" | ".73" | ".74" | ".75" | ".76" | "return" | "none";
const FAILURES: Failure[] = [".71", ".72", ".73", ".74", ".75", ".76", "return", "none", "none"];

describe("settlement chaos: seeded failures, crashes and concurrent jobs", () => {
  let h: Harness;
  let tenant: Tenant;
  beforeAll(async () => {
    h = await createHarness({
      chains: true,
      env: {
        SANDBOX_SLOW_LEG_MS: String(SLOW_LEG_MS),
        SETTLEMENT_LEG_DEADLINES: JSON.stringify({ BURNED: 60, ATTESTED: 60, ROUTING: 60 }),
      },
    });
    tenant = await createTenant(h);
    await enableBurnPlan(h, tenant);
  }, 60_000);
  afterAll(() => h?.close());

  it(`${ORDERS} orders end DELIVERED or RETURNED, each payment once, every unit accounted for on chain`, async () => {
    const next = random(SEED);
    const planned: Array<{ placed: PlacedOrder; failure: Failure }> = [];
    for (let i = 0; i < ORDERS; i++) {
      const failure = FAILURES[Math.floor(next() * FAILURES.length)] as Failure;
      const whole = 10 + Math.floor(next() * 190);
      const cents = failure.startsWith(".") ? failure.slice(1) : String(10 + Math.floor(next() * 60));
      const placed = await placeOrder(h, tenant, undefined, `${whole}.${cents}`);
      planned.push({ placed, failure });
    }
    const hashes = await Promise.all(planned.map(({ placed }) => sendPlan(h, placed)));
    for (const [i, { placed, failure }] of planned.entries()) {
      expect((await submitBurn(h, tenant, placed.orderId, hashes[i] as Hex)).status).toBe(200);
      if (failure === "return")
        await returnOrder(quietContext(h), placed.orderId, "the chaos suite cancels it");
    }
    h.jobs.loseAll();

    // The worker dies at a random point of a random payment, about once in seven calls.
    const points: FaultPoint[] = ["after-record", "after-broadcast", "after-confirm"];
    const faults: FaultInjector = {
      at(point) {
        if (points.includes(point) && next() < FAULT_ODDS / 3) throw new Crash(point);
      },
    };
    const ids = planned.map(({ placed }) => placed.orderId);
    const orders = () =>
      h.database.db.select().from(settlementOrders).where(inArray(settlementOrders.id, ids));
    const done = (status: string) => status === "DELIVERED" || status === "RETURNED";
    let crashes = 0;
    for (let round = 0; round < 200; round++) {
      const open = (await orders()).filter((order) => !done(order.status)).map((order) => order.id);
      if (open.length === 0) break;
      const job = (id: string) =>
        advanceOrder(quietContext(h, faults), id).catch((error: unknown) => {
          if (!(error instanceof Crash)) throw error;
          crashes += 1;
        });
      await Promise.all(open.flatMap((id) => [job(id), job(id)]));
      await runSweep(quietContext(h), [markOverdueOrders, releaseSandboxMentoLimit]);
      h.clock.advance(5_000);
    }

    const final = await orders();
    const outcome = (failure: Failure) =>
      final
        .filter((order) => planned.find((plan) => plan.placed.orderId === order.id)?.failure === failure)
        .map((order) => order.status);
    const counts = Object.fromEntries(FAILURES.map((failure) => [failure, outcome(failure)]));
    console.info(`chaos: ${ORDERS} orders, ${crashes} crashes`, JSON.stringify(counts));
    // An order left unfinished is told with its timeline and payments, to find why.
    const unfinished = [];
    for (const order of final.filter((row) => !done(row.status))) {
      const events = await h.database.db
        .select()
        .from(settlementEvents)
        .where(eq(settlementEvents.orderId, order.id));
      const payments = await h.database.db
        .select()
        .from(settlementTransactions)
        .where(eq(settlementTransactions.orderId, order.id));
      unfinished.push({
        order: `${order.id} ${order.status}/${order.fundsStatus}/${order.health}`,
        timeline: events.map(
          (event) => `${event.kind}${event.detail?.reason ? ` (${event.detail.reason})` : ""}`,
        ),
        payments: payments.map((t) => `${t.purpose} ${t.status} chain ${t.chainId} nonce ${t.nonce}`),
      });
    }
    expect(unfinished).toEqual([]);
    expect(crashes).toBeGreaterThan(0);
    // What each failure must end as: returns are returned, everything else delivered.
    for (const { placed, failure } of planned) {
      const order = final.find((row) => row.id === placed.orderId);
      expect(order?.status, `${failure} ${placed.orderId}`).toBe(
        failure === "return" ? "RETURNED" : "DELIVERED",
      );
      expect(order?.health, placed.orderId).toBe("HEALTHY");
    }

    // No payment twice: one live payment per purpose and order, every nonce used once.
    const sent = await h.database.db.select().from(settlementTransactions);
    const mined = sent.filter((t) => t.status === "success");
    const purposes = mined.filter((t) => t.orderId).map((t) => `${t.orderId}:${t.purpose}`);
    expect(new Set(purposes).size).toBe(purposes.length);
    const nonces = mined.map((t) => `${t.chainId}:${t.nonce}`);
    expect(new Set(nonces).size).toBe(nonces.length);

    const network = h.network;
    if (!network) throw new Error("no chains");
    const source = sandboxPublicClient(sandboxChainOf(network, "source"));
    const intermediate = sandboxPublicClient(sandboxChainOf(network, "intermediate"));
    const destination = sandboxPublicClient(sandboxChainOf(network, "destination"));
    const receipt = (client: typeof source, hash: string | null) =>
      client.getTransactionReceipt({ hash: hash as Hex });

    for (const { placed } of planned) {
      const id = placed.orderId;
      const [order] = await h.database.db.select().from(settlementOrders).where(eq(settlementOrders.id, id));
      const [quote] = await h.database.db
        .select()
        .from(settlementQuotes)
        .where(eq(settlementQuotes.id, order?.quoteId ?? ""));
      const events = await h.database.db
        .select()
        .from(settlementEvents)
        .where(eq(settlementEvents.orderId, id));
      const ofKind = (kind: string) => events.filter((event) => event.kind === kind);
      if (!order || !quote) throw new Error(`order ${id} vanished`);

      // From the chains' own receipts, never from the service's figures.
      const [burn] = parseEventLogs({
        abi: tokenMessengerV2Abi,
        eventName: "DepositForBurn",
        logs: (await receipt(source, order.burnTxHash)).logs,
      });
      const burned = burn?.args.amount ?? 0n;
      const [mint] = parseEventLogs({
        abi: tokenMessengerV2Abi,
        eventName: "MintAndWithdraw",
        logs: (await receipt(intermediate, ofKind("FORWARDED_MINT")[0]?.txHash ?? null)).logs,
      });
      const feeIn = mint?.args.feeCollected ?? 0n;
      let routed = 0n;
      for (const sentRoute of ofKind("ROUTE_SENT")) {
        const logs = (await receipt(intermediate, sentRoute.txHash)).logs;
        for (const log of parseEventLogs({
          abi: sandboxRouteRequestAbi,
          eventName: "RouteRequested",
          logs,
        })) {
          routed += log.args.amountIn;
        }
      }
      for (const refund of ofKind("ROUTE_REFUNDED")) {
        const logs = (await receipt(intermediate, refund.txHash)).logs;
        for (const log of parseEventLogs({ abi: sandboxRouteRequestAbi, eventName: "RouteRefunded", logs })) {
          routed -= log.args.amount;
        }
      }
      let returnedBurn = 0n;
      const returnBurn = ofKind("RETURN_BURNED")[0];
      if (returnBurn) {
        const [back] = parseEventLogs({
          abi: tokenMessengerV2Abi,
          eventName: "DepositForBurn",
          logs: (await receipt(intermediate, returnBurn.txHash)).logs,
        });
        returnedBurn = back?.args.amount ?? 0n;
      }
      const residue =
        order.status === "DELIVERED" ? quote.serviceFeeUsdc + (quote.transferUpfrontFeeUsdc - feeIn) : 0n;
      expect(burned, `${id}: burned = fee in + routed + returned + residue`).toBe(
        feeIn + routed + returnedBurn + residue,
      );

      if (order.status === "DELIVERED") {
        const delivery = await receipt(destination, ofKind("DELIVERED")[0]?.txHash ?? null);
        const transfer = parseEventLogs({ abi: erc20Abi, eventName: "Transfer", logs: delivery.logs }).find(
          (log) => log.args.to.toLowerCase() === quote.destinationAddress.toLowerCase(),
        );
        expect(delivery.status).toBe("success");
        expect((transfer?.args.value ?? 0n) >= quote.copAmountMin, id).toBe(true);
        expect(routed, id).toBe(quote.routeInputUsdc);
      } else {
        const back = await receipt(source, ofKind("RETURNED")[0]?.txHash ?? null);
        const [returned] = parseEventLogs({
          abi: tokenMessengerV2Abi,
          eventName: "MintAndWithdraw",
          logs: back.logs,
        });
        expect(returned?.args.mintRecipient.toLowerCase()).toBe(quote.sourceAddress.toLowerCase());
        expect((returned?.args.amount ?? 0n) + (returned?.args.feeCollected ?? 0n)).toBe(returnedBurn);
        expect(routed, id).toBe(0n);
      }
    }
  }, 600_000);
});
