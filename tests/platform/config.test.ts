import { describe, expect, it } from "vitest";
import worker from "../../functions/index";
import { parseConfig } from "../../lib/config";
import { misconfiguredApp } from "../../lib/http/app";

describe("configuration", () => {
  it("defaults to mock mode on the local chain profile", () => {
    const parsed = parseConfig({});
    expect(parsed.ok && parsed.config.MODE).toBe("mock");
    expect(parsed.ok && parsed.config.CHAIN_PROFILE).toBe("local");
  });

  it("refuses mock mode on the mainnet chain profile", () => {
    const parsed = parseConfig({ MODE: "mock", CHAIN_PROFILE: "mainnet" });
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.problems).toContainEqual({
      variable: "MODE",
      problem: "mock mode is refused on the mainnet chain profile",
    });
  });

  it("refuses live mode without its secrets, naming each one", () => {
    const parsed = parseConfig({ MODE: "live", CHAIN_PROFILE: "testnet", ADMIN_TOKEN: "short" });
    expect(parsed.ok).toBe(false);
    const variables = !parsed.ok ? parsed.problems.map((p) => p.variable).sort() : [];
    expect(variables).toEqual([
      "ADMIN_TOKEN",
      "BURN_PLAN_SIGNER_KEY",
      "DATABASE_URL",
      "QSTASH_CURRENT_SIGNING_KEY",
      "QSTASH_NEXT_SIGNING_KEY",
      "QSTASH_TOKEN",
      "SETTLEMENT_ACCOUNT_ADDRESS",
    ]);
  });

  it("answers every request with 500 naming the variable but never its value", async () => {
    const secretLooking = "postgres://user:hunter2@db.example/prod";
    const parsed = parseConfig({ MODE: "turbo", DATABASE_URL: "not a url hunter2" });
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    const app = misconfiguredApp(parsed.problems);
    for (const path of ["/health", "/api/integrations/settlements/quotes", "/anything"]) {
      const response = await app.request(path, { method: "POST" });
      expect(response.status).toBe(500);
      const body = (await response.json()) as { error: string };
      expect(body.error).toContain("MODE");
      expect(body.error).toContain("DATABASE_URL");
      expect(body.error).not.toContain("turbo");
      expect(body.error).not.toContain("hunter2");
      expect(body.error).not.toContain(secretLooking);
    }
  });

  it("makes the worker entry answer 500 when a variable the worker needs is missing", async () => {
    const env = { MODE: "mock", QSTASH_TOKEN: "t" };
    const ctx = { waitUntil() {}, passThroughOnException() {} } as unknown as ExecutionContext;
    const response = await worker.fetch(new Request("http://x/health"), env, ctx);
    expect(response.status).toBe(500);
    const body = (await response.json()) as { error: string };
    expect(body.error).toContain("DATABASE_URL is required by the worker");
  });
});
