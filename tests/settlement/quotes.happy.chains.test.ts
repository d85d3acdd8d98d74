import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { route as updateOrganization } from "../../functions/tenancy/admin-update-organization";
import { createHarness, type Harness } from "../harness/app";
import { bodyOf } from "../harness/bodies";
import { createQuote, DESTINATION_ADDRESS, SOURCE_ADDRESS } from "../harness/settlement";
import { adminRequest, createTenant, type Tenant } from "../harness/tenants";

describe("settlement quotes", () => {
  let h: Harness;
  let tenant: Tenant;
  beforeAll(async () => {
    h = await createHarness({ chains: true });
    tenant = await createTenant(h);
  }, 60_000);
  afterAll(() => h.close());

  it("prices 100 USDC to the unit on the local chains", async () => {
    const quote = await createQuote(h, tenant, "100");
    expect(quote).toMatchObject({
      sendAmountUsdc: "100",
      // A Standard transfer, as the spec describes: the sandbox's 0.2 USDC forwarding fee, no
      // protocol fee, and the 20% buffer on top.
      transferUpfrontFeeUsdc: "0.24",
      totalDebitUsdc: "100.24",
      transferSpeed: "standard",
      fees: {
        fastTransferFeeUsdc: "0",
        forwardingFeeUsdc: "0.2",
        feeBufferUsdc: "0.04",
        serviceFeeUsdc: "1",
        serviceFeeBps: 100,
      },
      routeInputUsdc: "99",
      sourceAddress: SOURCE_ADDRESS,
      destinationAddress: DESTINATION_ADDRESS,
    });
    // The sandbox route keeps 10 bps: 99 USDC → 98.901 USDm; Mento: 3,900 COPm per USDm less 0.25%:
    // 98.901 × 3,900 × 0.9975 = 384,749.61525 COPm. The floor is 97% of that, rounded down.
    expect(quote.expectedUsdm).toBe("98.901");
    expect(quote.expectedCopAmount).toBe("384749.61525");
    expect(quote.copAmountMin).toBe("373207.1267925");
    expect(quote.rate).toBe("3847.496152");
    expect(quote.minimumRate).toBe("3732.071267");
    expect(quote.quoteId).toMatch(/^qt_/);
    const created = Date.parse(quote.createdAt);
    expect(Date.parse(quote.expiresAt) - created).toBe(60_000);
    expect(quote.legs).toHaveLength(3);
    expect(quote.legs[0]?.provider).toBe("circle-cctp-v2-standard-forwarding");
  });

  it("prices Fast for an organization that opted in, its fee shown apart, and Standard again when it opts out", async () => {
    const fast = await createTenant(h, "Fast wallet");
    const optIn = (fastTransfer: boolean) =>
      adminRequest(h, `/admin/organizations/${fast.organizationId}`, {
        method: "PATCH",
        body: { fastTransfer },
      });
    const opted = await optIn(true);
    expect((await bodyOf(opted, updateOrganization, 200)).organization.fastTransfer).toBe(true);

    const quote = await createQuote(h, fast, "100");
    expect(quote).toMatchObject({
      // 1 bps of the total (0.010026 rounded up), 0.2 to forward, 20% of both (0.042006 rounded up).
      transferUpfrontFeeUsdc: "0.252032",
      totalDebitUsdc: "100.252032",
      transferSpeed: "fast",
      fees: { fastTransferFeeUsdc: "0.010026", forwardingFeeUsdc: "0.2", feeBufferUsdc: "0.042006" },
    });
    expect(quote.legs[0]?.provider).toBe("circle-cctp-v2-fast-forwarding");

    expect((await optIn(false)).status).toBe(200);
    expect(await createQuote(h, fast, "100")).toMatchObject({
      transferSpeed: "standard",
      transferUpfrontFeeUsdc: "0.24",
    });
    // Another organization's setting never reaches this one.
    expect(await createQuote(h, tenant, "100")).toMatchObject({ transferSpeed: "standard" });
  });
});
