import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../harness/app";
import { errorOf } from "../harness/bodies";
import { liveEnv, UNUSED_IDENTITY_PROVIDERS, UNUSED_PAYOUT_PROVIDER } from "../harness/identity";
import { createTenant, type Tenant } from "../harness/tenants";

const good = {
  address: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
  chainRole: "source",
  token: "USDC",
  amount: "100",
};

describe("sandbox helpers: bad input", () => {
  let h: Harness;
  let tenant: Tenant;
  beforeAll(async () => {
    h = await createHarness();
    tenant = await createTenant(h);
  });
  afterAll(() => h.close());

  const faucet = (body: unknown) =>
    h.app.request("/api/integrations/sandbox/faucet", {
      method: "POST",
      headers: { authorization: `Bearer ${tenant.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });

  const cases: Array<[string, Record<string, unknown>, number, string, string]> = [
    ["a non-hex address", { address: "0xnothex" }, 400, "INVALID_REQUEST", "body.address"],
    [
      "a bad mixed-case checksum",
      { address: "0x70997970c51812dc3A010C7d01b50e0d17dc79C8" },
      400,
      "INVALID_REQUEST",
      "body.address",
    ],
    [
      "the zero address",
      { address: "0x0000000000000000000000000000000000000000" },
      400,
      "INVALID_REQUEST",
      "body.address",
    ],
    ["an unknown chain role", { chainRole: "moon" }, 400, "INVALID_REQUEST", "body.chainRole"],
    ["an unknown token", { token: "DOGE" }, 400, "INVALID_REQUEST", "body.token"],
    ["too many decimals", { amount: "1.0000001" }, 400, "INVALID_AMOUNT", "body.amount"],
    ["a negative amount", { amount: "-5" }, 400, "INVALID_AMOUNT", "body.amount"],
    ["a zero amount", { amount: "0" }, 400, "INVALID_AMOUNT", "body.amount"],
    ["an amount as a number", { amount: 100 }, 400, "INVALID_AMOUNT", "body.amount"],
    ["an unknown field", { colour: "red" }, 400, "INVALID_REQUEST", "body.colour"],
  ];
  for (const [what, change, status, code, field] of cases) {
    it(`refuses ${what} with ${status} ${code} naming ${field}`, async () => {
      const response = await faucet({ ...good, ...change });
      expect(response.status).toBe(status);
      const { body } = await errorOf(response);
      expect(body.error.code).toBe(code);
      expect(body.error.problems?.map((p) => p.field)).toContain(field);
    });
  }

  it("refuses more than the per-call maximum with ABOVE_MAXIMUM", async () => {
    const response = await faucet({ ...good, amount: "100000.000001" });
    expect(response.status).toBe(400);
    expect((await errorOf(response)).code).toBe("ABOVE_MAXIMUM");
  });

  it("reports every failing field at once", async () => {
    const response = await faucet({ address: "0x1", chainRole: "moon", token: "USDC", amount: "1.1234567" });
    const { body } = await errorOf(response);
    expect(body.error.problems?.map((p) => p.field).sort()).toEqual(["body.address", "body.chainRole"]);
  });

  it("answers 503 PROVIDER_UNAVAILABLE when the sandbox chains are not running", async () => {
    const response = await faucet(good);
    expect(response.status).toBe(503);
    expect((await errorOf(response)).code).toBe("PROVIDER_UNAVAILABLE");
  });
});

describe("sandbox helpers in live mode", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({
      env: { ...liveEnv(), ...UNUSED_IDENTITY_PROVIDERS, ...UNUSED_PAYOUT_PROVIDER },
    });
  });
  afterAll(() => h.close());

  it("do not exist: both answer 404 to a valid key", async () => {
    const tenant = await createTenant(h);
    const headers = { authorization: `Bearer ${tenant.apiKey}`, "content-type": "application/json" };
    const network = await h.app.request("/api/integrations/sandbox/network", { headers });
    expect(network.status).toBe(404);
    const faucet = await h.app.request("/api/integrations/sandbox/faucet", {
      method: "POST",
      headers,
      body: JSON.stringify(good),
    });
    expect(faucet.status).toBe(404);
  });
});
