import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../harness/app";
import { createQuote, DESTINATION_ADDRESS, SOURCE_ADDRESS } from "../harness/settlement";
import { createTenant, type Tenant } from "../harness/tenants";

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
      // Fixed sandbox fees: 1 bps Fast Transfer on the total, 0.2 USDC forwarding.
      transferUpfrontFeeUsdc: "0.210022",
      totalDebitUsdc: "100.210022",
      fees: {
        fastTransferFeeUsdc: "0.010022",
        forwardingFeeUsdc: "0.2",
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
    const created = Date.parse(String(quote.createdAt));
    expect(Date.parse(String(quote.expiresAt)) - created).toBe(60_000);
    expect(quote.legs).toHaveLength(3);
  });
});
