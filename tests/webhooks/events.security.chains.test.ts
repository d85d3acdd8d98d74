import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { route as listEvents } from "../../functions/webhooks/list-events";
import { createHarness, type Harness } from "../harness/app";
import { bodyOf } from "../harness/bodies";
import { placeOrder, sendPlan, submitBurn } from "../harness/burns";
import { describePartnerRouteSecurity } from "../harness/partner-security";
import { enableBurnPlan, partnerRequest } from "../harness/settlement";
import { createTenant } from "../harness/tenants";

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ chains: true });
}, 60_000);
afterAll(() => h.close());

describePartnerRouteSecurity("GET /api/integrations/webhooks/events", () => h, {
  method: "GET",
  path: () => "/api/integrations/webhooks/events",
});

describe("events are the organization's own", () => {
  it("lists none of another organization's events, by page, type or cursor", async () => {
    const owner = await createTenant(h, "Owner");
    const other = await createTenant(h, "Other");
    await enableBurnPlan(h, owner);
    const placed = await placeOrder(h, owner);
    expect((await submitBurn(h, owner, placed.orderId, await sendPlan(h, placed))).status).toBe(200);

    const ownerPage = await bodyOf(
      await partnerRequest(h, owner, "/api/integrations/webhooks/events"),
      listEvents,
      200,
    );
    expect(ownerPage.events.map((event) => event.type)).toEqual(["settlement.order.burned"]);

    for (const query of ["", "?type=settlement.order.burned", "?limit=500"]) {
      const page = await (await partnerRequest(h, other, `/api/integrations/webhooks/events${query}`)).json();
      expect(page).toEqual({ events: [], nextCursor: null });
    }
    // A cursor from before the owner's event still shows the other organization nothing.
    const before = "evt_00000000000000000000000000";
    const page = await (
      await partnerRequest(h, other, `/api/integrations/webhooks/events?cursor=${before}`)
    ).json();
    expect(page).toEqual({ events: [], nextCursor: null });
  }, 60_000);
});
