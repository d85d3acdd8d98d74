import { eq } from "drizzle-orm";
import { type Hex, parseEventLogs } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandboxChainOf, sandboxPublicClient } from "../../dev/chains";
import { messageTransmitterV2Abi } from "../../lib/kernel/chain/abis";
import { runSweep } from "../../lib/kernel/sweep";
import type { AttestationProvider } from "../../lib/settlement/legs/ports";
import type { FaultInjector, FaultPoint } from "../../lib/settlement/payments";
import { advanceOrder } from "../../lib/settlement/progress/advance";
import { markOverdueOrders } from "../../lib/settlement/progress/sweep-hooks";
import { settlementEvents } from "../../schema";
import type { Harness } from "../harness/app";
import { placeOrder, sendPlan, submitBurn } from "../harness/burns";
import { quietContext } from "../harness/context";
import { orderPayments, orderRow, readOrder, settlementSuite } from "../harness/settlement";
import type { Tenant } from "../harness/tenants";

/**
 * Circle's leg when Circle fails, driven by mock mode's test amounts (the cents of sendAmountUsdc):
 * `.71` the forward fails and the service relays the attested message itself; `.72` Circle's fee is
 * above the burn's maxFee and the order shows why it waits; `.73` the attestation is later than its
 * leg's deadline. Each order ends DELIVERED, its mint found by its message nonce, nothing paid twice.
 */

const BURNED_DEADLINE_S = 60;
const ATTESTED_DEADLINE_S = 60;
const SLOW_LEG_MS = 180_000;

class Crash extends Error {}

describe("settlement through Circle's failures", () => {
  let h: Harness;
  let tenant: Tenant;
  beforeAll(async () => {
    ({ h, tenant } = await settlementSuite({
      slowLegMs: SLOW_LEG_MS,
      deadlines: { BURNED: BURNED_DEADLINE_S, ATTESTED: ATTESTED_DEADLINE_S },
    }));
  }, 60_000);
  afterAll(() => h.close());

  const read = (orderId: string) => readOrder(h, tenant, orderId);
  const row = (orderId: string) => orderRow(h, orderId);
  const paymentsOf = (orderId: string) => orderPayments(h, orderId);
  const mintEvent = async (orderId: string) =>
    (await h.database.db.select().from(settlementEvents).where(eq(settlementEvents.orderId, orderId))).find(
      (event) => event.kind === "FORWARDED_MINT",
    );

  async function burned(amount: string) {
    const placed = await placeOrder(h, tenant, undefined, amount);
    const hash = await sendPlan(h, placed);
    expect((await submitBurn(h, tenant, placed.orderId, hash)).status).toBe(200);
    return placed.orderId;
  }

  /** The scheduler drained a poll at a time, the cron sweep after each, as production runs them. */
  async function drive(orderId: string, polls: number, stepMs = 5_000) {
    for (let poll = 0; poll < polls && (await row(orderId))?.status !== "DELIVERED"; poll++) {
      await h.jobs.drain();
      await runSweep(quietContext(h), [markOverdueOrders]);
      h.clock.advance(stepMs);
    }
    return read(orderId);
  }

  const intermediate = () => {
    if (!h.network) throw new Error("no chains");
    return sandboxChainOf(h.network, "intermediate");
  };

  it(".71: Circle's forward fails; the service relays the attested message itself, once, and the order is DELIVERED", async () => {
    const orderId = await burned("40.71");
    const order = await drive(orderId, 40);
    expect(order).toMatchObject({ status: "DELIVERED", health: "HEALTHY" });

    const relays = (await paymentsOf(orderId)).filter((payment) => payment.purpose === "relay");
    expect(relays).toHaveLength(1);
    expect(relays[0]?.status).toBe("success");
    const mint = order.timeline.find((entry) => entry.kind === "FORWARDED_MINT");
    expect(mint?.txHash).toBe(relays[0]?.hash);
    expect((await mintEvent(orderId))?.detail).toMatchObject({ mintedBy: "service" });

    // On chain: the settlement account received the message with the nonce Circle attested.
    const attested = (
      await h.database.db.select().from(settlementEvents).where(eq(settlementEvents.orderId, orderId))
    ).find((event) => event.kind === "ATTESTED");
    const receipt = await sandboxPublicClient(intermediate()).getTransactionReceipt({
      hash: relays[0]?.hash as Hex,
    });
    const [received] = parseEventLogs({
      abi: messageTransmitterV2Abi,
      eventName: "MessageReceived",
      logs: receipt.logs,
    });
    expect(received?.args.nonce).toBe(attested?.detail?.eventNonce);
    expect(received?.args.caller).toBe(h.deps.settlement.accountAddress);
  });

  it("an order whose forward is reported normal keeps Circle's mint: no relay", async () => {
    const orderId = await burned("40.70");
    const order = await drive(orderId, 40);
    expect(order.status).toBe("DELIVERED");
    expect((await paymentsOf(orderId)).map((payment) => payment.purpose)).not.toContain("relay");
    // A Standard burn: Circle took its 0.2 USDC forwarding fee; the 0.04 buffer stays with the order.
    expect((await mintEvent(orderId))?.detail).toMatchObject({
      mintedBy: "circle",
      feeCollected: "200000",
      feeUnusedUsdc: "40000",
    });
  });

  it(".72: Circle's fee is above the burn's maxFee: the order shows insufficient_fee, is STUCK past its deadline, and heals when Circle attests", async () => {
    const orderId = await burned("30.72");
    await drive(orderId, 4);
    let order = await read(orderId);
    expect(order.status).toBe("BURNED");
    expect(order.timeline.filter((entry) => entry.kind === "ATTESTATION_DELAYED")).toEqual([
      expect.objectContaining({ status: "BURNED", reason: "insufficient_fee" }),
    ]);

    h.clock.advance(BURNED_DEADLINE_S * 1000);
    await runSweep(quietContext(h), [markOverdueOrders]);
    expect((await read(orderId)).health).toBe("STUCK");

    order = await drive(orderId, 60);
    expect(order).toMatchObject({ status: "DELIVERED", health: "HEALTHY" });
    // The reason was said once, however often Circle repeated it.
    expect(order.timeline.filter((entry) => entry.kind === "ATTESTATION_DELAYED")).toHaveLength(1);
    expect((await paymentsOf(orderId)).map((payment) => payment.purpose)).not.toContain("relay");
  });

  it(".73: the attestation comes after the leg's deadline: STUCK, then DELIVERED when it arrives", async () => {
    const orderId = await burned("30.73");
    await drive(orderId, 2);
    h.clock.advance((BURNED_DEADLINE_S + 5) * 1000);
    await runSweep(quietContext(h), [markOverdueOrders]);
    const stuck = await read(orderId);
    expect(stuck).toMatchObject({ status: "BURNED", health: "STUCK" });
    expect(stuck.timeline.some((entry) => entry.kind === "ATTESTATION_DELAYED")).toBe(false);

    const order = await drive(orderId, 60);
    expect(order).toMatchObject({ status: "DELIVERED", health: "HEALTHY" });
  });

  it(".82: Circle's attestation expired before anyone relayed it; the service asks Circle to re-attest, relays the fresh message once, DELIVERED", async () => {
    const orderId = await burned("26.82");
    const order = await drive(orderId, 20);
    expect(order).toMatchObject({ status: "DELIVERED", health: "HEALTHY" });
    const delayed = order.timeline.filter((entry) => entry.kind === "ATTESTATION_DELAYED");
    expect(delayed.map((entry) => entry.reason)).toEqual(["attestation_expired"]);
    const relays = (await paymentsOf(orderId)).filter((payment) => payment.purpose === "relay");
    expect(relays.map((relay) => relay.status)).toEqual(["success"]);
    expect((await mintEvent(orderId))?.detail).toMatchObject({ mintedBy: "service" });
  });

  it("a forward Circle never reports (pending past the ATTESTED deadline) is relayed by the service", async () => {
    const orderId = await burned("25.71");
    // Circle stays silent about the failed forward: pending, never failed.
    const circle = h.deps.providers.legs.attestation;
    const silent: AttestationProvider = {
      ...circle,
      async messages(request) {
        const answers = await circle.messages(request);
        return answers.map((answer) =>
          answer.forwardState === "failed" ? { ...answer, forwardState: "pending" } : answer,
        );
      },
    };
    const ctx = () => {
      const base = quietContext(h);
      return {
        ...base,
        providers: { ...base.providers, legs: { ...base.providers.legs, attestation: silent } },
      };
    };
    for (let poll = 0; poll < 10 && (await row(orderId))?.status !== "ATTESTED"; poll++) {
      await advanceOrder(ctx(), orderId);
      h.clock.advance(5_000);
    }
    await advanceOrder(ctx(), orderId);
    expect((await row(orderId))?.status).toBe("ATTESTED");
    expect((await paymentsOf(orderId)).map((payment) => payment.purpose)).not.toContain("relay");

    h.clock.advance(ATTESTED_DEADLINE_S * 1000);
    for (let poll = 0; poll < 30 && (await row(orderId))?.status !== "DELIVERED"; poll++) {
      await advanceOrder(ctx(), orderId);
      h.clock.advance(5_000);
    }
    expect((await row(orderId))?.status).toBe("DELIVERED");
    expect((await paymentsOf(orderId)).filter((payment) => payment.purpose === "relay")).toHaveLength(1);
  });

  it("never takes another burn's message for the order's: Circle's answer for another burn attests nothing, unpaid", async () => {
    const [mine, other] = [await burned("20.71"), await burned("21.71")];
    const otherBurn = (await row(other))?.burnTxHash as Hex;
    const circle = h.deps.providers.legs.attestation;
    // An attestation service that answers with another order's message.
    const confused: AttestationProvider = {
      ...circle,
      messages: (request) => circle.messages({ ...request, burnTxHash: otherBurn }),
    };
    const base = quietContext(h);
    const ctx = {
      ...base,
      providers: { ...base.providers, legs: { ...base.providers.legs, attestation: confused } },
    };
    for (let poll = 0; poll < 12; poll++) {
      await advanceOrder(ctx, mine);
      h.clock.advance(5_000);
    }
    // The other burn's message carries the other order's commitment and amount: never this order's.
    expect(await row(mine)).toMatchObject({ status: "BURNED" });
    expect(await paymentsOf(mine)).toEqual([]);
    const kinds = (
      await h.database.db.select().from(settlementEvents).where(eq(settlementEvents.orderId, mine))
    ).map((event) => event.kind);
    expect(kinds).not.toContain("ATTESTED");
  });

  for (const point of ["after-record", "after-broadcast", "after-confirm"] as const satisfies FaultPoint[]) {
    it(`a crash ${point} of the relay relays once and the order still arrives`, async () => {
      const orderId = await burned("33.71");
      let fired = false;
      const faults: FaultInjector = {
        at(where, what) {
          if (fired || where !== point || what !== "relay") return;
          fired = true;
          throw new Crash(`crash ${where} ${what}`);
        },
      };
      for (let attempt = 0; attempt < 40 && (await row(orderId))?.status !== "DELIVERED"; attempt++) {
        await advanceOrder(quietContext(h, faults), orderId).catch((error: unknown) => {
          if (!(error instanceof Crash)) throw error;
        });
        h.clock.advance(5_000);
      }
      expect(fired).toBe(true);
      expect((await row(orderId))?.status).toBe("DELIVERED");
      const relays = (await paymentsOf(orderId)).filter((payment) => payment.purpose === "relay");
      expect(relays.map((relay) => relay.status)).toEqual(["success"]);
    });
  }
});
