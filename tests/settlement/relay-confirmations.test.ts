import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandboxChainOf, sandboxPublicClient } from "../../dev/chains";
import { runSweep } from "../../lib/kernel/sweep";
import { markOverdueOrders } from "../../lib/settlement/progress/sweep-hooks";
import type { Harness } from "../harness/app";
import { placeOrder, sendPlan, submitBurn } from "../harness/burns";
import { quietContext } from "../harness/context";
import { readOrder, settlementSuite } from "../harness/settlement";
import type { Tenant } from "../harness/tenants";

describe("a relayed mint on an intermediate chain that asks for 2 confirmations (live profiles ask 2 or 3)", () => {
  let h: Harness;
  let tenant: Tenant;
  beforeAll(async () => {
    ({ h, tenant } = await settlementSuite({
      slowLegMs: 60_000,
      confirmations: { intermediate: 2 },
      deadlines: { BURNED: 30, ATTESTED: 30, ROUTING: 30, ROUTED: 30 },
    }));
  }, 60_000);
  afterAll(() => h.close());

  it(".71: Circle's forward fails and the service relays: the timeline tells FORWARD_FAILED, then MINT_RELAYED, however late the relay is seen mined", async () => {
    if (!h.network) throw new Error("no chains");
    const intermediate = sandboxPublicClient(sandboxChainOf(h.network, "intermediate"));
    const placed = await placeOrder(h, tenant, undefined, "41.71");
    expect((await submitBurn(h, tenant, placed.orderId, await sendPlan(h, placed))).status).toBe(200);
    for (let poll = 0; poll < 80; poll++) {
      const { status } = await readOrder(h, tenant, placed.orderId);
      if (status === "DELIVERED" || status === "RETURNED") break;
      await h.jobs.drain();
      await runSweep(quietContext(h), [markOverdueOrders]);
      await h.vendors?.aggregator.tick();
      await intermediate.request({ method: "hardhat_mine" as never, params: ["0x1"] as never });
      h.clock.advance(5_000);
    }
    const order = await readOrder(h, tenant, placed.orderId);
    const kinds = order.timeline.map((e) => e.kind);
    expect(order.status).toBe("DELIVERED");
    expect(kinds.slice(kinds.indexOf("ATTESTED"), kinds.indexOf("FORWARDED_MINT") + 1)).toEqual([
      "ATTESTED",
      "FORWARD_FAILED",
      "MINT_RELAYED",
      "FORWARDED_MINT",
    ]);
  }, 300_000);
});
