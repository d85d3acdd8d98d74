import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runSweep } from "../../lib/kernel/sweep";
import { markOverdueOrders } from "../../lib/settlement/progress/sweep-hooks";
import type { Harness } from "../harness/app";
import { placeOrder, sendPlan, submitBurn } from "../harness/burns";
import { quietContext } from "../harness/context";
import { readOrder, settlementSuite } from "../harness/settlement";
import type { Tenant } from "../harness/tenants";

/**
 * Every documented test amount (docs/sandbox.md), each burned alone through the public API as a
 * partner's test would: it ends DELIVERED or RETURNED as the page says, and its timeline tells what
 * happened with entries a plain order's lacks.
 */
const SLOW_LEG_MS = 60_000;
const DEADLINE_S = 30;

const EXPECTED: Array<{ cents: string; ends: "DELIVERED" | "RETURNED"; tells: string[] }> = [
  { cents: "71", ends: "DELIVERED", tells: ["FORWARD_FAILED", "MINT_RELAYED"] },
  { cents: "72", ends: "DELIVERED", tells: ["ATTESTATION_DELAYED", "STUCK"] },
  { cents: "73", ends: "DELIVERED", tells: ["STUCK"] },
  { cents: "74", ends: "DELIVERED", tells: ["ROUTE_REFUNDED"] },
  { cents: "75", ends: "DELIVERED", tells: ["ROUTE_PARTIAL", "CONVERTED"] },
  { cents: "76", ends: "DELIVERED", tells: ["EXCHANGE_DELAYED", "STUCK"] },
  { cents: "77", ends: "RETURNED", tells: ["EXCHANGE_DELAYED", "RETURN_REQUESTED", "RETURN_ROUTE_SENT"] },
  { cents: "78", ends: "DELIVERED", tells: ["ROUTE_FAILED", "ROUTE_REFUNDED"] },
  { cents: "79", ends: "DELIVERED", tells: ["ROUTE_FAILED", "STUCK", "ROUTE_REFUNDED"] },
  { cents: "80", ends: "DELIVERED", tells: ["ROUTE_PARTIAL", "CONVERTED"] },
  { cents: "81", ends: "DELIVERED", tells: ["EXCHANGE_HALTED", "STUCK"] },
  { cents: "82", ends: "DELIVERED", tells: ["ATTESTATION_DELAYED", "FORWARD_FAILED", "MINT_RELAYED"] },
  { cents: "83", ends: "DELIVERED", tells: ["ROUTE_PARTIAL", "ROUTE_REFUNDED"] },
];

describe("the sandbox's test amounts, through the public API", () => {
  let h: Harness;
  let tenant: Tenant;
  beforeAll(async () => {
    ({ h, tenant } = await settlementSuite({
      slowLegMs: SLOW_LEG_MS,
      deadlines: { BURNED: DEADLINE_S, ATTESTED: DEADLINE_S, ROUTING: DEADLINE_S, ROUTED: DEADLINE_S },
    }));
  }, 60_000);
  afterAll(() => h.close());

  /** Burns an order of `amount` and runs the service and the local vendors until it ends. */
  async function settle(amount: string, source?: "sourceB") {
    const placed = await placeOrder(h, tenant, undefined, amount, source);
    expect((await submitBurn(h, tenant, placed.orderId, await sendPlan(h, placed))).status).toBe(200);
    for (let poll = 0; poll < 60; poll++) {
      const { status } = await readOrder(h, tenant, placed.orderId);
      if (status === "DELIVERED" || status === "RETURNED") break;
      await h.jobs.drain();
      await runSweep(quietContext(h), [markOverdueOrders]);
      await h.vendors?.aggregator.tick();
      h.clock.advance(5_000);
    }
    return readOrder(h, tenant, placed.orderId);
  }

  let plain: Set<string>;
  it("a plain amount is DELIVERED with the plain story", async () => {
    const order = await settle("40.10");
    expect(order.status).toBe("DELIVERED");
    plain = new Set(order.timeline.map((entry) => entry.kind));
    expect([...plain]).toEqual([
      "ORDER_CREATED",
      "BURN_VERIFIED",
      "ATTESTATION_REQUESTED",
      "ATTESTED",
      "FORWARDED_MINT",
      "ROUTE_SENT",
      "ROUTE_COMPLETED",
      "EXCHANGED",
      "DELIVERED",
    ]);
  });

  // Every other amount burns on the second source chain: each outcome holds from either.
  for (const [index, { cents, ends, tells }] of EXPECTED.entries()) {
    const source = index % 2 === 1 ? "sourceB" : undefined;
    it(`.${cents}${source ? " from the second source chain" : ""} ends ${ends}, its timeline telling ${tells.join(", ")}`, async () => {
      const order = await settle(`41.${cents}`, source);
      expect(order.execution.chainId).toBe(source ? 31334 : 31331);
      expect(order.status).toBe(ends);
      const extra = [...new Set(order.timeline.map((entry) => entry.kind))].filter(
        (kind) => !plain.has(kind),
      );
      expect(extra).toEqual(expect.arrayContaining(tells));
    });
  }
});
