import { eq } from "drizzle-orm";
import { type Hex, parseEventLogs } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandboxChainOf, sandboxPublicClient } from "../../dev/chains";
import { route as adminReturn } from "../../functions/settlement/admin-return";
import { tokenMessengerV2Abi } from "../../lib/kernel/chain/abis";
import { returnHookData } from "../../lib/kernel/chain/forwarding";
import type { FaultInjector, FaultPoint } from "../../lib/settlement/payments";
import { advanceOrder } from "../../lib/settlement/progress/advance";
import { settlementEvents, settlementTransactions, webhookEvents } from "../../schema";
import type { Harness } from "../harness/app";
import { bodyOf, errorOf } from "../harness/bodies";
import { placeOrder, sendPlan, sourceUsdcOf, submitBurn } from "../harness/burns";
import { quietContext } from "../harness/context";
import {
  orderEvents,
  orderPayments,
  orderRow,
  partnerRequest,
  readOrder,
  settlementSuite,
} from "../harness/settlement";
import { adminRequest, type Tenant } from "../harness/tenants";

/**
 * The return: an order that will not deliver sends its USDC back to the user's source address over
 * CCTP, as a final outcome of its own (RETURNING, RETURNED), with the return's hashes on the
 * timeline, webhook events, and every unit accounted for.
 */

class Crash extends Error {}

describe("settlement returns", () => {
  let h: Harness;
  let tenant: Tenant;
  beforeAll(async () => {
    ({ h, tenant } = await settlementSuite());
  }, 60_000);
  afterAll(() => h.close());

  const chain = (role: "source" | "intermediate") => {
    if (!h.network) throw new Error("no chains");
    return sandboxChainOf(h.network, role);
  };
  const read = (orderId: string) => readOrder(h, tenant, orderId);
  const row = (orderId: string) => orderRow(h, orderId);
  const returnIt = (orderId: string, body: unknown = { reason: "the partner asked to cancel" }) =>
    adminRequest(h, `/admin/settlements/orders/${orderId}/return`, { method: "POST", body });
  const sourceUsdc = (holder: Hex) => sourceUsdcOf(h, holder);
  async function drive(orderId: string, until: string, polls = 40) {
    for (let poll = 0; poll < polls && (await row(orderId))?.status !== until; poll++) {
      await h.jobs.drain();
      h.clock.advance(5_000);
    }
    return read(orderId);
  }

  it("returns a burned order's USDC to its source address: RETURNING, then RETURNED, every unit accounted for", async () => {
    const placed = await placeOrder(h, tenant, undefined, "60");
    const burnHash = await sendPlan(h, placed);
    expect((await submitBurn(h, tenant, placed.orderId, burnHash)).status).toBe(200);
    const before = await sourceUsdc(placed.user.address);

    const body = await bodyOf(await returnIt(placed.orderId), adminReturn, 202);
    expect(body).toMatchObject({ orderId: placed.orderId, status: "BURNED" });
    // Asking again answers the first decision.
    expect(await (await returnIt(placed.orderId, { reason: "again" })).json()).toEqual(body);

    const order = await drive(placed.orderId, "RETURNED");
    expect(order).toMatchObject({ status: "RETURNED", fundsStatus: "RETURNED_TO_SOURCE", health: "HEALTHY" });
    expect(order.timeline.map((entry) => entry.kind)).toEqual([
      "ORDER_CREATED",
      "BURN_VERIFIED",
      "RETURN_REQUESTED",
      "ATTESTATION_REQUESTED",
      "ATTESTED",
      "FORWARDED_MINT",
      "RETURN_BURNED",
      "RETURNED",
    ]);
    const returned = order.timeline.at(-1);
    expect(returned).toMatchObject({ chainId: chain("source").chainId });
    expect(returned?.txHash).toMatch(/^0x[0-9a-f]{64}$/);

    // No route ever left: the order's only payment is the return burn.
    const payments = await h.database.db
      .select()
      .from(settlementTransactions)
      .where(eq(settlementTransactions.orderId, placed.orderId));
    expect(payments.map((payment) => payment.purpose)).toEqual(["return"]);

    // The return burn carries the order's return commitment and names the user as recipient.
    const returnBurn = order.timeline.find((entry) => entry.kind === "RETURN_BURNED");
    const receipt = await sandboxPublicClient(chain("intermediate")).getTransactionReceipt({
      hash: returnBurn?.txHash as Hex,
    });
    const [burn] = parseEventLogs({
      abi: tokenMessengerV2Abi,
      eventName: "DepositForBurn",
      logs: receipt.logs,
    });
    expect(burn?.args.hookData).toBe(returnHookData(placed.orderId));
    expect(burn?.args.destinationDomain).toBe(chain("source").cctpDomain);

    // Conservation: what the user burned = Circle's fee in + Circle's fee back + what came back.
    const events = await h.database.db
      .select()
      .from(settlementEvents)
      .where(eq(settlementEvents.orderId, placed.orderId));
    const detail = (kind: string) => events.find((event) => event.kind === kind)?.detail ?? {};
    const feeIn = BigInt(String(detail("FORWARDED_MINT").feeCollected));
    const feeBack = BigInt(String(detail("RETURNED").feeCollected));
    const back = BigInt(String(detail("RETURNED").amount));
    expect(feeIn + feeBack + back).toBe(placed.totalDebit);
    expect((await sourceUsdc(placed.user.address)) - before).toBe(back);
    // What came back: the principal and the unused buffer, less Circle's two forwarding fees.
    expect(back).toBe(placed.totalDebit - 200_000n - 200_000n);

    const types = (
      await h.database.db.select().from(webhookEvents).where(eq(webhookEvents.subjectId, placed.orderId))
    ).map((event) => event.type);
    expect(types).toContain("settlement.order.returning");
    expect(types).toContain("settlement.order.returned");
    expect(types).not.toContain("settlement.order.routing");
  });

  it("relays the return's mint itself when Circle's forward to the source chain fails, and the timeline says so", async () => {
    const placed = await placeOrder(h, tenant, undefined, "61");
    expect((await submitBurn(h, tenant, placed.orderId, await sendPlan(h, placed))).status).toBe(200);
    const before = await sourceUsdc(placed.user.address);
    const source = chain("source").cctpDomain ?? -1;
    h.vendors?.circle.failForwardsTo(source);
    try {
      expect((await returnIt(placed.orderId)).status).toBe(202);
      const order = await drive(placed.orderId, "RETURNED");
      expect(order.status).toBe("RETURNED");
      const kinds = order.timeline.map((entry) => entry.kind);
      expect(kinds).toEqual(expect.arrayContaining(["FORWARD_FAILED", "MINT_RELAYED", "RETURNED"]));
      const relay = (await orderPayments(h, placed.orderId)).find(
        (payment) => payment.purpose === "return-relay",
      );
      expect(relay?.status).toBe("success");
      expect(order.timeline.at(-1)?.txHash).toBe(relay?.hash);
      const returned = (await orderEvents(h, placed.orderId)).find((event) => event.kind === "RETURNED");
      expect(returned?.detail).toMatchObject({ mintedBy: "service" });
      const back = BigInt(String(returned?.detail?.amount));
      expect(back).toBeGreaterThan(0n);
      expect((await sourceUsdc(placed.user.address)) - before).toBe(back);
    } finally {
      h.vendors?.circle.failForwardsTo(source, false);
    }
  });

  it("refuses what cannot be returned and what is not a request, and changes nothing", async () => {
    const created = await placeOrder(h, tenant);
    const refused = await returnIt(created.orderId);
    expect(refused.status).toBe(409);
    expect((await errorOf(refused)).code).toBe("ORDER_NOT_RETURNABLE");
    expect((await row(created.orderId))?.status).toBe("CREATED");

    expect((await returnIt("ord_unknown")).status).toBe(404);
    for (const body of [
      {},
      { reason: "" },
      { reason: "x".repeat(501) },
      { reason: "ok", extra: 1 },
      "text",
    ]) {
      const answer = await returnIt(created.orderId, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
    }

    const delivered = await placeOrder(h, tenant);
    expect((await submitBurn(h, tenant, delivered.orderId, await sendPlan(h, delivered))).status).toBe(200);
    expect((await drive(delivered.orderId, "DELIVERED")).status).toBe("DELIVERED");
    const late = await returnIt(delivered.orderId);
    expect(late.status).toBe(409);
    const events = await h.database.db
      .select()
      .from(settlementEvents)
      .where(eq(settlementEvents.orderId, delivered.orderId));
    expect(events.some((event) => event.kind === "RETURN_REQUESTED")).toBe(false);
  });

  for (const point of ["after-record", "after-broadcast", "after-confirm"] as const satisfies FaultPoint[]) {
    it(`a crash ${point} of the return burn burns once, and the order is RETURNED`, async () => {
      const placed = await placeOrder(h, tenant, undefined, "22");
      expect((await submitBurn(h, tenant, placed.orderId, await sendPlan(h, placed))).status).toBe(200);
      expect((await returnIt(placed.orderId)).status).toBe(202);
      h.jobs.loseAll();
      let fired = false;
      const faults: FaultInjector = {
        at(where, what) {
          if (fired || where !== point || what !== "return") return;
          fired = true;
          throw new Crash(`crash ${where} ${what}`);
        },
      };
      for (
        let attempt = 0;
        attempt < 40 && (await orderRow(h, placed.orderId))?.status !== "RETURNED";
        attempt++
      ) {
        await advanceOrder(quietContext(h, faults), placed.orderId).catch((error: unknown) => {
          if (!(error instanceof Crash)) throw error;
        });
        h.clock.advance(5_000);
      }
      expect(fired).toBe(true);
      expect((await orderRow(h, placed.orderId))?.status).toBe("RETURNED");
      const burns = (await orderPayments(h, placed.orderId)).filter(
        (payment) => payment.purpose === "return",
      );
      expect(burns.map((burn) => burn.status)).toEqual(["success"]);
    });
  }

  it("needs the admin token", async () => {
    const placed = await placeOrder(h, tenant);
    const answer = await partnerRequest(h, tenant, `/admin/settlements/orders/${placed.orderId}/return`, {
      method: "POST",
      body: { reason: "a partner may not" },
    });
    expect(answer.status).toBe(401);
  });
});
