import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness, TEST_ADMIN_TOKEN } from "../harness/app";
import { errorOf } from "../harness/bodies";
import { createTenant, type Tenant } from "../harness/tenants";

/** Unknown query parameters are refused on every operation, as unknown body fields are (lib/http/contract.ts). */
describe("unknown query parameters", () => {
  let h: Harness;
  let tenant: Tenant;
  beforeAll(async () => {
    h = await createHarness();
    tenant = await createTenant(h);
  }, 60_000);
  afterAll(() => h.close());

  const get = (
    path: string,
    headers: Record<string, string> = { authorization: `Bearer ${tenant.apiKey}` },
  ) => h.app.request(path, { headers });

  async function refused(response: Response) {
    expect(response.status, await response.clone().text()).toBe(400);
    const { body } = await errorOf(response);
    expect(body.error.code).toBe("INVALID_REQUEST");
    return body.error.problems ?? [];
  }

  const unknown = (name: string) => ({
    field: `query.${name}`,
    code: "INVALID_REQUEST",
    problem: "is not a known field",
  });

  it("refuses a misspelt filter on a listing with 400 naming it, instead of listing everything", async () => {
    expect(await refused(await get("/api/integrations/settlements/orders?stauts=DELIVERED"))).toEqual([
      unknown("stauts"),
    ]);
    expect(await refused(await get("/api/integrations/breb/payouts?user_address=0x1&status=failed"))).toEqual(
      [unknown("user_address")],
    );
  });

  it("refuses any parameter on a GET that takes no query, partner, admin and key-less alike", async () => {
    expect(await refused(await get("/api/integrations/webhooks/endpoint?verbose=1"))).toEqual([
      unknown("verbose"),
    ]);
    expect(
      await refused(
        await get("/admin/settlements/stuck?limit=5", { authorization: `Bearer ${TEST_ADMIN_TOKEN}` }),
      ),
    ).toEqual([unknown("limit")]);
    expect(await refused(await get("/health?full=true", {}))).toEqual([unknown("full")]);
  });

  it("lists an unknown parameter with the query's other failing ones, and refuses one on a POST too", async () => {
    const problems = await refused(await get("/api/integrations/settlements/orders?limit=0&stauts=x&page=2"));
    expect(problems.map((problem) => problem.field).sort()).toEqual([
      "query.limit",
      "query.page",
      "query.stauts",
    ]);
    const posted = await h.app.request("/api/integrations/webhooks/endpoint/test?dryRun=1", {
      method: "POST",
      headers: { authorization: `Bearer ${tenant.apiKey}` },
    });
    expect(await refused(posted)).toEqual([unknown("dryRun")]);
  });

  it("refuses any parameter on a provider's callback, before its signature is checked", async () => {
    const response = await h.app.request("/callbacks/kyc?debug=1", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(await refused(response)).toEqual([unknown("debug")]);
  });

  it("still takes every parameter an operation declares", async () => {
    const orders = await get(
      "/api/integrations/settlements/orders?status=DELIVERED&limit=5&since=2026-01-01T00:00:00Z",
    );
    expect(orders.status, await orders.clone().text()).toBe(200);
    expect(await orders.json()).toEqual({ orders: [], nextCursor: null });
    const events = await get("/api/integrations/webhooks/events?type=payout.completed&limit=10");
    expect(events.status, await events.clone().text()).toBe(200);
    const payouts = await get(
      "/api/integrations/breb/payouts?userAddress=0x8ba1f109551bD432803012645Ac136ddd64DBA72&status=completed",
    );
    expect(payouts.status, await payouts.clone().text()).toBe(200);
  });
});
