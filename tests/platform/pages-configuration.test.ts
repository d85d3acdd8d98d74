import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { route as adminGetHealth } from "../../functions/settlement/admin-health";
import { buildApp } from "../../lib/composition/app";
import { buildPagesApp } from "../../lib/composition/pages";
import type { AppDeps, PagesWorker } from "../../lib/http/deps";
import { createHarness, type Harness, TEST_ADMIN_TOKEN } from "../harness/app";
import { bodyOf } from "../harness/bodies";

/**
 * GET /admin/health's `pages`: whether the pages worker runs on the API worker's variables and
 * secrets (docs/operations.md says why they must be the same), compared by fingerprints under a
 * fresh nonce, so no value crosses the binding or reaches the answer.
 */
describe("the pages worker's configuration, as the operator's health shows it", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness();
  }, 60_000);
  afterAll(() => h.close());

  const OTHER_WEBHOOK_KEY = "b3RoZXItd2ViaG9vay1zZWNyZXRzLWtleS0wMDAwMDA=";

  const healthWith = async (pages: PagesWorker | undefined) => {
    const { pages: _bound, ...deps } = h.deps;
    const app = buildApp({ ...deps, ...(pages ? { pages } : {}) });
    const response = await app.request("/admin/health", {
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    });
    const text = await response.clone().text();
    return { report: await bodyOf(response, adminGetHealth, 200), text };
  };
  const pagesOn = (deps: AppDeps): PagesWorker => {
    const app = buildPagesApp(deps);
    return { fetch: async (request) => app.fetch(request) };
  };

  it("is `same` when both workers run on the same values (the harness's binding)", async () => {
    const response = await h.app.request("/admin/health", {
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    });
    expect((await bodyOf(response, adminGetHealth, 200)).pages).toEqual({ status: "same", differing: [] });
  });

  it("names the variable that differs, and neither value, when a secret was set differently on the pages worker", async () => {
    const drifted = pagesOn({
      ...h.deps,
      config: { ...h.deps.config, WEBHOOK_SECRETS_KEY: OTHER_WEBHOOK_KEY },
    });
    const { report, text } = await healthWith(drifted);
    expect(report.pages).toEqual({ status: "differs", differing: ["WEBHOOK_SECRETS_KEY"] });
    expect(text).not.toContain(OTHER_WEBHOOK_KEY);
    expect(text).not.toContain(h.deps.config.WEBHOOK_SECRETS_KEY ?? "no key");
  });

  it("names every variable that differs, a default against a setting included", async () => {
    const drifted = pagesOn({
      ...h.deps,
      config: { ...h.deps.config, PUBLIC_URL: "https://pages.example.invalid", ADMIN_TOKEN: undefined },
    });
    expect((await healthWith(drifted)).report.pages).toEqual({
      status: "differs",
      differing: ["PUBLIC_URL", "ADMIN_TOKEN"],
    });
  });

  it("is `unreachable` when the pages worker fails or answers nonsense, and `unbound` without the binding", async () => {
    const failing: PagesWorker = { fetch: async () => new Response("down", { status: 500 }) };
    const throwing: PagesWorker = {
      fetch: async () => {
        throw new Error("binding failed");
      },
    };
    const nonsense: PagesWorker = { fetch: async () => Response.json({ other: true }) };
    for (const pages of [failing, throwing, nonsense]) {
      expect((await healthWith(pages)).report.pages).toEqual({ status: "unreachable", differing: [] });
    }
    expect((await healthWith(undefined)).report.pages).toEqual({ status: "unbound", differing: [] });
  });

  it("is `unreachable` within the providers' deadline when the pages worker never answers", async () => {
    const { pages: _bound, ...deps } = h.deps;
    const hung: PagesWorker = { fetch: () => new Promise<Response>(() => {}) };
    const app = buildApp({ ...deps, config: { ...deps.config, PROVIDER_TIMEOUT_MS: 200 }, pages: hung });
    const started = Date.now();
    const response = await app.request("/admin/health", {
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    });
    expect((await bodyOf(response, adminGetHealth, 200)).pages).toEqual({
      status: "unreachable",
      differing: [],
    });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("is reachable over the binding only: the API worker does not forward the check's path", async () => {
    const response = await h.app.request("/internal/pages/configuration", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ nonce: "n".repeat(43) }),
    });
    expect(response.status).toBe(404);
  });

  it("the pages worker refuses a check without a proper nonce, and changes nothing", async () => {
    const pages = pagesOn(h.deps);
    for (const body of [
      "{}",
      JSON.stringify({ nonce: "short" }),
      "not json",
      JSON.stringify({ nonce: 42 }),
    ]) {
      const response = await pages.fetch(
        new Request("http://api.test/internal/pages/configuration", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body,
        }),
      );
      expect(response.status, body).toBe(400);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe("INVALID_REQUEST");
    }
  });
});
