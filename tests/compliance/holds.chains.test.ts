import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { route as releaseRoute } from "../../functions/settlement/admin-release-hold";
import type { Harness } from "../harness/app";
import { bodyOf, errorOf } from "../harness/bodies";
import { type PlacedOrder, placeOrder, sendPlan, submitBurn } from "../harness/burns";
import { signedInMember } from "../harness/dashboard";
import { orderEvents, orderRow, partnerRequest, readOrder, settlementSuite } from "../harness/settlement";
import { adminRequest, type Tenant } from "../harness/tenants";

/**
 * Held orders (issue 38): money already moving when an address becomes listed. An order whose
 * destination is listed after its burn is held before the service pays its next leg (health STUCK,
 * a HELD entry, nothing paid, never looked at again on its own), then released by the operator
 * (delivered) or returned (its USDC back to the source), each with a recorded reason.
 */

let h: Harness;
let tenant: Tenant;

beforeAll(async () => {
  ({ h, tenant } = await settlementSuite({
    identity: true,
    env: { RATE_LIMIT_PER_IP_PER_MINUTE: "100000" },
  }));
}, 120_000);

afterAll(async () => {
  await h?.close();
});

async function drive(
  orderId: string,
  done: (row: Awaited<ReturnType<typeof orderRow>>) => boolean,
  polls = 40,
) {
  for (let poll = 0; poll < polls && !done(await orderRow(h, orderId)); poll++) {
    await h.jobs.drain();
    h.clock.advance(5_000);
  }
  return readOrder(h, tenant, orderId);
}

/**
 * An order burned, reported and screened again at its first look (Circle now attesting), then its
 * (destination) address listed on the sandbox's oracle: the next screening is before the route.
 */
async function burnedThenListed(): Promise<PlacedOrder> {
  const placed = await placeOrder(h, tenant, undefined, "40");
  const burn = await sendPlan(h, placed);
  expect((await submitBurn(h, tenant, placed.orderId, burn)).status).toBe(200);
  const attesting = await drive(placed.orderId, (row) => row?.fundsStatus === "AWAITING_ATTESTATION");
  expect(attesting.fundsStatus).toBe("AWAITING_ATTESTATION");
  const listed = await partnerRequest(h, tenant, "/api/integrations/sandbox/sanctions", {
    method: "POST",
    body: { address: placed.user.address },
  });
  expect(listed.status).toBe(200);
  return placed;
}

const held = (row: Awaited<ReturnType<typeof orderRow>>) => row?.health === "STUCK";

describe("an order whose destination is listed after its burn", () => {
  it("is held before its route: health STUCK, a HELD entry naming both parties, nothing paid, and it stays so", async () => {
    const placed = await burnedThenListed();
    const order = await drive(placed.orderId, held);
    expect(order).toMatchObject({ status: "MINTED", health: "STUCK", fundsStatus: "USDC_ON_INTERMEDIATE" });
    expect(order.timeline.map((e) => e.kind)).toContain("HELD");
    const entry = (await orderEvents(h, placed.orderId)).find((event) => event.kind === "HELD");
    expect(entry?.detail).toEqual({
      reason: "sanctions_listed",
      fields: ["body.sourceAddress", "body.destinationAddress"],
    });
    // Nothing more happens on its own, however long it waits.
    const before = order.timeline.length;
    const later = await drive(placed.orderId, () => false, 10);
    expect(later).toMatchObject({ status: "MINTED", health: "STUCK" });
    expect(later.timeline).toHaveLength(before);
    expect(later.timeline.map((e) => e.kind)).not.toContain("ROUTE_SENT");
    // The partner's dashboard shows the hold on the order's page.
    const member = await signedInMember(h, tenant, "holds");
    const page = await member.page(`/dashboard/orders/${placed.orderId}`);
    expect(page).toContain("Orden retenida por cumplimiento");
    expect(page).toContain("STUCK");
  });

  it("goes on when the operator releases it, the reason on its timeline, and is DELIVERED", async () => {
    const placed = await burnedThenListed();
    await drive(placed.orderId, held);
    const release = (reason: string) =>
      adminRequest(h, `/admin/settlements/orders/${placed.orderId}/release`, {
        method: "POST",
        body: { reason },
      });
    expect(await bodyOf(await release("false positive, case 38-7"), releaseRoute, 202)).toMatchObject({
      orderId: placed.orderId,
      status: "MINTED",
    });
    expect((await errorOf(await release("again"), 409)).code).toBe("ORDER_NOT_HELD");
    const order = await drive(placed.orderId, (row) => row?.status === "DELIVERED");
    expect(order).toMatchObject({ status: "DELIVERED", health: "HEALTHY" });
    const kinds = order.timeline.map((e) => e.kind);
    expect(kinds.indexOf("HELD")).toBeLessThan(kinds.indexOf("HOLD_RELEASED"));
    expect(kinds.indexOf("HOLD_RELEASED")).toBeLessThan(kinds.indexOf("DELIVERED"));
  });

  it("goes back to its source when the operator returns it instead: RETURNED", async () => {
    const placed = await burnedThenListed();
    await drive(placed.orderId, held);
    const returned = await adminRequest(h, `/admin/settlements/orders/${placed.orderId}/return`, {
      method: "POST",
      body: { reason: "sanctions hit confirmed; returned on counsel's advice" },
    });
    expect(returned.status).toBe(202);
    const order = await drive(placed.orderId, (row) => row?.status === "RETURNED");
    expect(order).toMatchObject({ status: "RETURNED", fundsStatus: "RETURNED_TO_SOURCE" });
    expect(order.timeline.map((e) => e.kind)).toEqual(
      expect.arrayContaining(["HELD", "RETURN_REQUESTED", "RETURNED"]),
    );
  });

  it("is held at its first look after the burn report when its depositor was listed before the burn", async () => {
    const placed = await placeOrder(h, tenant, undefined, "40");
    const listed = await partnerRequest(h, tenant, "/api/integrations/sandbox/sanctions", {
      method: "POST",
      body: { address: placed.user.address },
    });
    expect(listed.status).toBe(200);
    // The burn already happened on chain: the report is taken, and the order held, not refused.
    expect((await submitBurn(h, tenant, placed.orderId, await sendPlan(h, placed))).status).toBe(200);
    const order = await drive(placed.orderId, held);
    expect(order).toMatchObject({ status: "BURNED", health: "STUCK", fundsStatus: "BURNED_ON_SOURCE" });
    expect(order.timeline.map((e) => e.kind)).toEqual(["ORDER_CREATED", "BURN_VERIFIED", "HELD"]);
  });

  it("refuses to release an order that is not held", async () => {
    const placed = await placeOrder(h, tenant, undefined, "40");
    const release = await adminRequest(h, `/admin/settlements/orders/${placed.orderId}/release`, {
      method: "POST",
      body: { reason: "nothing to release" },
    });
    expect((await errorOf(release, 409)).code).toBe("ORDER_NOT_HELD");
  });
});
