import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { route as createQuoteRoute } from "../../functions/settlement/create-quote";
import { createHarness, type Harness } from "../harness/app";
import { bodyOf } from "../harness/bodies";
import { DESTINATION_ADDRESS, partnerRequest, SOURCE_ADDRESS } from "../harness/settlement";
import { createTenant, type Tenant } from "../harness/tenants";

/**
 * Under a Mento trading limit that takes 100 USDC but not 505, a quote by receiveAmountCop for what
 * 100 USDC delivers is quotable as the send amount is: the solver probes at the least principal
 * (it probed at the midpoint of the limits first, 505 USDC, and answered MENTO_CAPACITY_EXCEEDED).
 */
describe("receiveAmountCop under a Mento trading limit", () => {
  let h: Harness;
  let tenant: Tenant;
  beforeAll(async () => {
    // 300 USDm net per 5 minutes on USDm/COPm: 100 USDC fits, the solver's 505 USDC probe does not.
    h = await createHarness({
      chains: {
        limits: {
          "USDm/COPm": { timestep0: 300, timestep1: 0, limit0: 300, limit1: 0, limitGlobal: 0, flags: 1 },
        },
      },
    });
    tenant = await createTenant(h);
  }, 60_000);
  afterAll(() => h.close());

  const quote = (body: Record<string, string>) =>
    partnerRequest(h, tenant, "/api/integrations/settlements/quotes", {
      method: "POST",
      body: { sourceAddress: SOURCE_ADDRESS, destinationAddress: DESTINATION_ADDRESS, ...body },
    });

  it("quotes by receiveAmountCop what a 100 USDC quote delivers", async () => {
    const bySend = await bodyOf(await quote({ sendAmountUsdc: "100" }), createQuoteRoute, 201);
    const response = await quote({ receiveAmountCop: bySend.copAmountMin });
    expect(response.status, await response.clone().text()).toBe(201);
  });
});
