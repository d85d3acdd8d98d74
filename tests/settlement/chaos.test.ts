import { eq, inArray } from "drizzle-orm";
import { type Hex, parseEventLogs } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  sandboxChainOf,
  sandboxPublicClient,
  sandboxRelayReceiverAbi,
  sandboxRouterAbi,
} from "../../dev/chains";
import { erc20Abi, tokenMessengerV2Abi } from "../../lib/kernel/chain/abis";
import { runSweep } from "../../lib/kernel/sweep";
import { returnOrder } from "../../lib/settlement/operator/return-order";
import type { FaultInjector, FaultPoint } from "../../lib/settlement/payments";
import { advanceOrder } from "../../lib/settlement/progress/advance";
import { markOverdueOrders } from "../../lib/settlement/progress/sweep-hooks";
import { settlementEvents, settlementOrders, settlementQuotes, settlementTransactions } from "../../schema";
import type { Harness } from "../harness/app";
import { type PlacedOrder, placeOrder, sendPlan, submitBurn } from "../harness/burns";
import { quietContext } from "../harness/context";
import { settlementSuite } from "../harness/settlement";
import type { Tenant } from "../harness/tenants";

/**
 * A random mix of orders, each with a seeded failure (mock mode's test amounts .71 to .83, an
 * operator's return, or none) and a worker that crashes at random points of every payment, advanced
 * by two jobs at once per order, as QStash may deliver. Every order must end DELIVERED or RETURNED,
 * no payment be made twice, and each order's money be accounted for from the chains' own receipts:
 * USDC burned = Circle's fee in + USDC routed (net of refunds) + USDC burned back to the user +
 * the documented residue (a delivered order's service fee and the upfront fee Circle did not take);
 * a return from the destination chain counts the USDC its way back brought as routed back.
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

type Failure =
  | ".71"
  | ".72"
  | ".73"
  | ".74"
  | ".75"
  | ".76"
  | ".77"
  | ".78"
  | ".79"
  | ".80"
  | ".81"
  | ".82"
  | ".83"
  | "return"
  | "none";
const FAILURES: Failure[] = [
  ".71",
  ".72",
  ".73",
  ".74",
  ".75",
  ".76",
  ".78",
  ".79",
  ".80",
  ".81",
  ".82",
  ".83",
  "return",
  "none",
  "none",
];
/**
 * `.77` moves Mento's rate, which is every order's: in the mix its window would catch most orders'
 * exchanges. It runs as a second wave instead, its orders burned together with plain ones.
 */
const RATE_WAVE: Failure[] = [".77", ".77", ".77", "none", "none", "none"];
/** The failures whose order is returned; the others deliver unless a `.77` window caught them. */
const RETURNS: Failure[] = [".77", "return"];

describe("settlement chaos: seeded failures, crashes and concurrent jobs", () => {
  let h: Harness;
  let tenant: Tenant;
  beforeAll(async () => {
    ({ h, tenant } = await settlementSuite({
      slowLegMs: SLOW_LEG_MS,
      deadlines: { BURNED: 60, ATTESTED: 60, ROUTING: 60, ROUTED: 60 },
    }));
  }, 60_000);
  afterAll(() => h?.close());

  it(`${ORDERS} orders and a wave of ${RATE_WAVE.length} end DELIVERED or RETURNED, each payment once, every unit accounted for on chain`, async () => {
    const next = random(SEED);
    const planned: Array<{ placed: PlacedOrder; failure: Failure }> = [];
    // The worker dies at a random point of a random payment, about once in seven calls.
    const points: FaultPoint[] = ["after-record", "after-broadcast", "after-confirm"];
    const faults: FaultInjector = {
      at(point) {
        if (points.includes(point) && next() < FAULT_ODDS / 3) throw new Crash(point);
      },
    };
    const done = (status: string) => status === "DELIVERED" || status === "RETURNED";
    const ordersOf = (ids: string[]) =>
      h.database.db.select().from(settlementOrders).where(inArray(settlementOrders.id, ids));
    let crashes = 0;

    /** Places, burns and advances one wave of orders until each is DELIVERED or RETURNED (or 200 polls). */
    async function wave(count: number, pick: (index: number) => Failure) {
      const placedNow: Array<{ placed: PlacedOrder; failure: Failure }> = [];
      for (let index = 0; index < count; index++) {
        const failure = pick(index);
        const whole = 10 + Math.floor(next() * 190);
        const cents = failure.startsWith(".") ? failure.slice(1) : String(10 + Math.floor(next() * 60));
        placedNow.push({ placed: await placeOrder(h, tenant, undefined, `${whole}.${cents}`), failure });
      }
      const hashes = await Promise.all(placedNow.map(({ placed }) => sendPlan(h, placed)));
      for (const [i, { placed, failure }] of placedNow.entries()) {
        expect((await submitBurn(h, tenant, placed.orderId, hashes[i] as Hex)).status).toBe(200);
        if (failure === "return")
          await returnOrder(quietContext(h), placed.orderId, "the chaos suite cancels it");
      }
      h.jobs.loseAll();
      const ids = placedNow.map(({ placed }) => placed.orderId);
      for (let round = 0; round < 200; round++) {
        const open = (await ordersOf(ids)).filter((order) => !done(order.status)).map((order) => order.id);
        if (open.length === 0) break;
        const job = (id: string) =>
          advanceOrder(quietContext(h, faults), id).catch((error: unknown) => {
            if (!(error instanceof Crash)) throw error;
            crashes += 1;
          });
        await Promise.all(open.flatMap((id) => [job(id), job(id)]));
        await runSweep(quietContext(h), [markOverdueOrders]);
        await h.vendors?.aggregator.tick();
        h.clock.advance(5_000);
      }
      planned.push(...placedNow);
    }

    await wave(ORDERS, () => FAILURES[Math.floor(next() * FAILURES.length)] as Failure);
    await wave(RATE_WAVE.length, (index) => RATE_WAVE[index] as Failure);
    const ids = planned.map(({ placed }) => placed.orderId);
    const orders = () => ordersOf(ids);

    const final = await orders();
    const outcome = (failure: Failure) =>
      final
        .filter((order) => planned.find((plan) => plan.placed.orderId === order.id)?.failure === failure)
        .map((order) => order.status);
    const counts = Object.fromEntries(
      [...FAILURES, ".77" as const].map((failure) => [failure, outcome(failure)]),
    );
    console.info(`chaos: ${planned.length} orders, ${crashes} crashes`, JSON.stringify(counts));
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
    // What each failure must end as: returns are returned, everything else delivered, except an
    // order whose price a `.77` window put below its floor (Mento's rate is every order's): the
    // service returned it, and its timeline says so.
    let caught = 0;
    for (const { placed, failure } of planned) {
      const order = final.find((row) => row.id === placed.orderId);
      const events = await h.database.db
        .select()
        .from(settlementEvents)
        .where(eq(settlementEvents.orderId, placed.orderId));
      const returnedByService = events.some(
        (event) => event.kind === "RETURN_REQUESTED" && event.detail?.by === "service",
      );
      const expected = RETURNS.includes(failure) ? "RETURNED" : returnedByService ? "RETURNED" : "DELIVERED";
      if (!RETURNS.includes(failure) && returnedByService) caught += 1;
      expect(order?.status, `${failure} ${placed.orderId}`).toBe(expected);
      expect(order?.health, placed.orderId).toBe("HEALTHY");
    }
    console.info(`chaos: ${caught} order(s) caught in a .77 window and returned by the service`);

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
          abi: sandboxRouterAbi,
          eventName: "RouteRequested",
          logs,
        })) {
          routed += log.args.amountIn;
        }
      }
      for (const refund of ofKind("ROUTE_REFUNDED")) {
        const logs = (await receipt(intermediate, refund.txHash)).logs;
        for (const log of parseEventLogs({ abi: sandboxRouterAbi, eventName: "RouteRefunded", logs })) {
          routed -= log.args.amount;
        }
        // `.83`: the token Mento does not trade came back as USDC by a way back of its own.
        for (const log of parseEventLogs({
          abi: sandboxRelayReceiverAbi,
          eventName: "RouteFulfilled",
          logs,
        })) {
          routed -= log.args.amountOut;
        }
      }
      const unwound = ofKind("ROUTE_REFUNDED").some(
        (refund) => (refund.detail as { substatus?: string } | null)?.substatus === "PARTIAL_UNWOUND",
      );
      // A return from the destination chain: the USDC its way back paid into the intermediate chain.
      for (const back of ofKind("RETURN_ROUTE_COMPLETED")) {
        const logs = (await receipt(intermediate, back.txHash)).logs;
        for (const log of parseEventLogs({
          abi: sandboxRelayReceiverAbi,
          eventName: "RouteFulfilled",
          logs,
        })) {
          routed -= log.args.amountOut;
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
      // What the aggregator kept of a partial delivery's way back: the service's fee bears it.
      const lost = order.status === "DELIVERED" ? routed - quote.routeInputUsdc : 0n;
      const residue =
        order.status === "DELIVERED"
          ? quote.serviceFeeUsdc + (quote.transferUpfrontFeeUsdc - feeIn) - lost
          : 0n;
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
        // Routed once; an unwound partial delivery lost the aggregator's cost both ways (10 bps each), no more.
        if (unwound) expect(lost >= 0n && lost <= (quote.routeInputUsdc * 20n) / 10_000n + 1n, id).toBe(true);
        else expect(routed, id).toBe(quote.routeInputUsdc);
      } else {
        const back = await receipt(source, ofKind("RETURNED")[0]?.txHash ?? null);
        const [returned] = parseEventLogs({
          abi: tokenMessengerV2Abi,
          eventName: "MintAndWithdraw",
          logs: back.logs,
        });
        expect(returned?.args.mintRecipient.toLowerCase()).toBe(quote.sourceAddress.toLowerCase());
        expect((returned?.args.amount ?? 0n) + (returned?.args.feeCollected ?? 0n)).toBe(returnedBurn);
        // Returned before its route left: nothing routed. From the destination chain: the aggregator
        // kept its cost both ways (10 bps each, and the 18-decimal dust), nothing more.
        if (ofKind("RETURN_ROUTE_COMPLETED").length === 0) expect(routed, id).toBe(0n);
        else expect(routed > 0n && routed <= (quote.routeInputUsdc * 20n) / 10_000n + 1n, id).toBe(true);
      }
    }
  }, 600_000);
});
