import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localSettlementVars } from "../../dev/local-defaults";
import { settlementQuotes } from "../../schema";
import { createHarness, type Harness } from "../harness/app";
import { errorOf } from "../harness/bodies";
import { freePort } from "../harness/free-port";
import { DESTINATION_ADDRESS, partnerRequest, SOURCE_ADDRESS } from "../harness/settlement";
import { adminRequest, createTenant, type Tenant } from "../harness/tenants";

const good = {
  sendAmountUsdc: "100",
  sourceAddress: SOURCE_ADDRESS,
  destinationAddress: DESTINATION_ADDRESS,
};

describe("settlement quote errors", () => {
  let h: Harness;
  let tenant: Tenant;
  beforeAll(async () => {
    // A small Mento limit on the USDm side of USDm/COPm: 500 USDm net per 5 minutes.
    h = await createHarness({
      chains: {
        limits: {
          "USDm/COPm": { timestep0: 300, timestep1: 0, limit0: 500, limit1: 0, limitGlobal: 0, flags: 1 },
        },
      },
    });
    tenant = await createTenant(h);
  }, 60_000);
  afterAll(() => h.close());

  const quote = (body: Record<string, unknown>, who: Tenant = tenant) =>
    partnerRequest(h, who, "/api/integrations/settlements/quotes", { method: "POST", body });

  const cases: Array<[string, Record<string, unknown>, string, string]> = [
    ["a number for the amount", { sendAmountUsdc: 100 }, "INVALID_AMOUNT", "body.sendAmountUsdc"],
    ["seven decimals", { sendAmountUsdc: "100.0000001" }, "INVALID_AMOUNT", "body.sendAmountUsdc"],
    ["an exponent", { sendAmountUsdc: "1e2" }, "INVALID_AMOUNT", "body.sendAmountUsdc"],
    ["a negative amount", { sendAmountUsdc: "-100" }, "INVALID_AMOUNT", "body.sendAmountUsdc"],
    ["9.999999 USDC", { sendAmountUsdc: "9.999999" }, "BELOW_MINIMUM", "body.sendAmountUsdc"],
    ["1,000.000001 USDC", { sendAmountUsdc: "1000.000001" }, "ABOVE_MAXIMUM", "body.sendAmountUsdc"],
    ["a bad hex source", { sourceAddress: "0x12" }, "INVALID_SOURCE_ADDRESS", "body.sourceAddress"],
    [
      "a bad checksum destination",
      { destinationAddress: "0x15d34AAf54267DB7D7c367839AAf71A00a2C6a65" },
      "INVALID_DESTINATION_ADDRESS",
      "body.destinationAddress",
    ],
    [
      "the zero address as destination",
      { destinationAddress: "0x0000000000000000000000000000000000000000" },
      "INVALID_DESTINATION_ADDRESS",
      "body.destinationAddress",
    ],
    ["an unknown field", { slippage: 5 }, "INVALID_REQUEST", "body.slippage"],
  ];
  for (const [what, change, code, field] of cases) {
    it(`refuses ${what} with 400 ${code} and stores nothing`, async () => {
      const before = (await h.database.db.select().from(settlementQuotes)).length;
      const response = await quote({ ...good, ...change });
      expect(response.status).toBe(400);
      const { body } = await errorOf(response);
      expect(body.error).toMatchObject({
        code,
        stage: "REQUEST",
        fundsStatus: "IN_USER_WALLET",
        fundsMoved: false,
      });
      expect(body.error.problems?.map((p) => p.field)).toContain(field);
      expect((await h.database.db.select().from(settlementQuotes)).length).toBe(before);
    });
  }

  it("accepts both bounds exactly", async () => {
    expect((await quote({ ...good, sendAmountUsdc: "10" })).status).toBe(201);
    expect((await quote({ ...good, sendAmountUsdc: "500.000000" })).status).toBe(201);
  });

  it("reports every failing field, with the most specific code", async () => {
    const response = await quote({ sendAmountUsdc: "5", sourceAddress: "nope", destinationAddress: "0x0" });
    const { body } = await errorOf(response);
    expect(body.error.code).toBe("BELOW_MINIMUM");
    expect(body.error.problems).toEqual([
      expect.objectContaining({ field: "body.sendAmountUsdc", code: "BELOW_MINIMUM" }),
      expect.objectContaining({ field: "body.sourceAddress", code: "INVALID_SOURCE_ADDRESS" }),
      expect.objectContaining({ field: "body.destinationAddress", code: "INVALID_DESTINATION_ADDRESS" }),
    ]);
  });

  it("answers MENTO_CAPACITY_EXCEEDED when the trade would break Mento's trading limit, and stores nothing", async () => {
    const before = (await h.database.db.select().from(settlementQuotes)).length;
    // 1,000 USDC becomes about 989 USDm into USDm/COPm: past the 500 USDm limit. 500 USDC (about 494) fits.
    const response = await quote({ ...good, sendAmountUsdc: "1000" });
    expect(response.status).toBe(409);
    expect(await errorOf(response)).toMatchObject({
      code: "MENTO_CAPACITY_EXCEEDED",
      stage: "QUOTE",
      fundsMoved: false,
    });
    expect((await h.database.db.select().from(settlementQuotes)).length).toBe(before);
  });

  it("answers INTAKE_PAUSED and SETTLEMENT_ACCOUNT_INACTIVE from the organization's settings", async () => {
    const paused = await createTenant(h, "Paused");
    await adminRequest(h, `/admin/organizations/${paused.organizationId}`, {
      method: "PATCH",
      body: { intakePaused: true },
    });
    const refused = await quote(good, paused);
    expect(refused.status).toBe(409);
    expect(await errorOf(refused)).toMatchObject({
      code: "INTAKE_PAUSED",
      fundsMoved: false,
      fundsStatus: "IN_USER_WALLET",
    });

    const inactive = await createTenant(h, "Inactive");
    await adminRequest(h, `/admin/organizations/${inactive.organizationId}`, {
      method: "PATCH",
      body: { settlementAccountActive: false },
    });
    const closed = await quote(good, inactive);
    expect(closed.status).toBe(409);
    expect((await errorOf(closed)).code).toBe("SETTLEMENT_ACCOUNT_INACTIVE");
  });
});

describe("settlement quote errors from the providers", () => {
  it("answers ROUTE_UNAVAILABLE when the chains of the route are not configured", async () => {
    const h = await createHarness({ env: localSettlementVars() });
    try {
      const tenant = await createTenant(h);
      const response = await partnerRequest(h, tenant, "/api/integrations/settlements/quotes", {
        method: "POST",
        body: good,
      });
      expect(response.status).toBe(409);
      expect(await errorOf(response)).toMatchObject({
        code: "ROUTE_UNAVAILABLE",
        stage: "QUOTE",
      });
    } finally {
      await h.close();
    }
  });

  it("answers PROVIDER_UNAVAILABLE when Mento's chain does not answer, within the provider timeout", async () => {
    const port = await freePort();
    const h = await createHarness({
      chains: true,
      env: { DESTINATION_RPC_URL: `http://127.0.0.1:${port}`, PROVIDER_TIMEOUT_MS: "500" },
    });
    try {
      const tenant = await createTenant(h);
      const started = performance.now();
      const response = await partnerRequest(h, tenant, "/api/integrations/settlements/quotes", {
        method: "POST",
        body: good,
      });
      expect(response.status).toBe(503);
      // The destination chain carries both Mento and the sanctions oracle: whichever read gives up
      // first answers, each a 503 to retry, and nothing is stored.
      const error = await errorOf(response);
      expect(["PROVIDER_UNAVAILABLE", "SCREENING_UNAVAILABLE"]).toContain(error.code);
      expect(error).toMatchObject({ stage: "QUOTE" });
      expect(performance.now() - started).toBeLessThan(5_000);
    } finally {
      await h.close();
    }
  });
});
