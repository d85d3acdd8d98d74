import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_VERSIONS, CURRENT_API_VERSION } from "../../lib/http/api-versions";
import { settlementQuotes } from "../../schema";
import { createHarness, type Harness } from "../harness/app";
import { errorOf } from "../harness/bodies";
import { createTenant, type Tenant } from "../harness/tenants";

/** Dated API versions (issue 24): the API-Version request header, and the version each answer names. */
describe("API-Version", () => {
  let h: Harness;
  let tenant: Tenant;
  beforeAll(async () => {
    h = await createHarness();
    tenant = await createTenant(h);
  }, 60_000);
  afterAll(() => h.close());

  const get = (path: string, headers: Record<string, string> = {}) =>
    h.app.request(path, { headers: { authorization: `Bearer ${tenant.apiKey}`, ...headers } });

  it("answers at the current version when none is asked, and says so", async () => {
    const response = await get("/api/integrations/webhooks/events");
    expect(response.status).toBe(200);
    expect(response.headers.get("api-version")).toBe(CURRENT_API_VERSION);
  });

  it("answers at the version asked for", async () => {
    const response = await get("/api/integrations/webhooks/events", { "API-Version": API_VERSIONS[0] });
    expect(response.status).toBe(200);
    expect(response.headers.get("api-version")).toBe(API_VERSIONS[0]);
  });

  it("names the version on errors too (an unknown route, a missing key)", async () => {
    const missing = await get("/api/integrations/nothing-here");
    expect(missing.status).toBe(404);
    expect(missing.headers.get("api-version")).toBe(CURRENT_API_VERSION);
    const anonymous = await h.app.request("/api/integrations/webhooks/events");
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("api-version")).toBe(CURRENT_API_VERSION);
  });

  it.each(["2019-02-19", "2026-11-25x", "latest", "0.1.0", "", "9".repeat(2_000)])(
    "refuses an unknown version (%j) with 400 API_VERSION_UNKNOWN listing the known ones, before anything else runs",
    async (asked) => {
      const before = await h.database.db.select().from(settlementQuotes);
      const response = await h.app.request("/api/integrations/settlements/quotes", {
        method: "POST",
        headers: {
          authorization: `Bearer ${tenant.apiKey}`,
          "content-type": "application/json",
          "accept-language": "en",
          "API-Version": asked,
        },
        body: JSON.stringify({ sendAmountUsdc: "100" }),
      });
      expect(response.headers.get("api-version")).toBe(CURRENT_API_VERSION);
      const refusal = await errorOf(response, 400);
      expect(refusal.code).toBe("API_VERSION_UNKNOWN");
      expect(refusal.knownVersions).toEqual([...API_VERSIONS]);
      expect(refusal.message.length).toBeLessThan(300);
      expect(await h.database.db.select().from(settlementQuotes)).toHaveLength(before.length);
    },
  );

  it("never reads a provider's own API-Version on its callbacks, and answers them with the current version like every other response", async () => {
    for (const path of ["/callbacks/kyc", "/callbacks/breb"]) {
      for (const headers of [{ "API-Version": "v3" }, {}] as Array<Record<string, string>>) {
        const response = await h.app.request(path, {
          method: "POST",
          headers: { "content-type": "application/json", ...headers },
          body: "{}",
        });
        expect((await errorOf(response)).code, path).toBe("CALLBACK_SIGNATURE_INVALID");
        expect(response.headers.get("api-version"), path).toBe(CURRENT_API_VERSION);
        expect(response.headers.get("x-request-id"), path).toMatch(/^req_/);
      }
    }
  });

  it("publishes the dated version in the OpenAPI document, beside the interface version", async () => {
    // The document is no operation's answer (no schema reads it): its parts are matched as they are.
    const document: unknown = await (await h.app.request("/openapi.json")).json();
    expect(document).toHaveProperty("info.version", "0.1.0");
    expect(document).toHaveProperty(["info", "x-api-version"], CURRENT_API_VERSION);
    expect(document).toHaveProperty(["info", "x-api-versions"], [...API_VERSIONS]);
  });
});
