import { describe, expect, it } from "vitest";
import worker from "../../functions/index";
import { misconfiguredApp } from "../../lib/http/app";
import { parseConfig } from "../../lib/kernel/config";

describe("configuration", () => {
  it("defaults to live mode: a deployment that forgets MODE refuses to start without live mode's secrets (issue 20, finding 12)", () => {
    const parsed = parseConfig({ CHAIN_PROFILE: "testnet" });
    expect(parsed.ok).toBe(false);
    const variables = !parsed.ok ? parsed.problems.map((p) => p.variable) : [];
    expect(variables).toContain("OTP_HASH_KEY");
    expect(variables).toContain("KYC_PROVIDER_URL");
    expect(variables).not.toContain("MODE");
    // Mock mode is asked for by name, as `npm run dev` and the tests do.
    const mock = parseConfig({ MODE: "mock" });
    expect(mock.ok && [mock.config.MODE, mock.config.CHAIN_PROFILE]).toEqual(["mock", "local"]);
  });

  it.each(["testnet", "mainnet"])(
    "refuses mock mode on any chains but the local sandbox's (%s)",
    (profile) => {
      const parsed = parseConfig({ MODE: "mock", CHAIN_PROFILE: profile });
      expect(parsed.ok).toBe(false);
      expect(!parsed.ok && parsed.problems).toContainEqual({
        variable: "MODE",
        problem: "mock mode runs only on the local sandbox chains (CHAIN_PROFILE=local)",
      });
    },
  );

  it("refuses live mode without its secrets, naming each one", () => {
    const parsed = parseConfig({ MODE: "live", CHAIN_PROFILE: "testnet", ADMIN_TOKEN: "short" });
    expect(parsed.ok).toBe(false);
    const variables = !parsed.ok ? parsed.problems.map((p) => p.variable).sort() : [];
    expect(variables).toEqual([
      "ADMIN_TOKEN",
      "BREB_CALLBACK_SECRET",
      "BREB_FEE_WALLET",
      "BREB_PROVIDER_API_KEY",
      "BREB_PROVIDER_URL",
      "BURN_PLAN_SIGNER_KEY",
      "DASHBOARD_SESSION_KEY",
      "DATABASE_URL",
      "EMAIL_FROM",
      "KYC_CALLBACK_SECRET",
      "KYC_PROVIDER_API_KEY",
      "KYC_PROVIDER_URL",
      "OTP_HASH_KEY",
      // Jobs are addressed to it: the default (a loopback URL) would send every job nowhere.
      "PUBLIC_URL",
      "QSTASH_CURRENT_SIGNING_KEY",
      "QSTASH_NEXT_SIGNING_KEY",
      "QSTASH_TOKEN",
      "RESEND_API_KEY",
      "SETTLEMENT_ACCOUNT_ADDRESS",
      "TWO_FACTOR_SECRETS_KEY",
      "WEBHOOK_SECRETS_KEY",
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
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      // The misconfigured app's own { error } (no operation's answer, no schema): read as it is.
      const body: unknown = await response.json();
      expect(body).toHaveProperty("error", expect.stringContaining("MODE"));
      expect(body).toHaveProperty("error", expect.stringContaining("DATABASE_URL"));
      const text = JSON.stringify(body);
      expect(text).not.toContain("turbo");
      expect(text).not.toContain("hunter2");
      expect(text).not.toContain(secretLooking);
    }
  });

  it("makes the worker entry answer 500 when a variable the worker needs is missing", async () => {
    const env = { MODE: "mock", QSTASH_TOKEN: "t" };
    const ctx = { waitUntil() {}, passThroughOnException() {} } as unknown as ExecutionContext;
    const response = await worker.fetch(new Request("http://x/health"), env, ctx);
    expect(response.status).toBe(500);
    const body: unknown = await response.json();
    expect(body).toHaveProperty("error", expect.stringContaining("DATABASE_URL is required by the worker"));
  });

  it("refuses a key that only looks like a private key (zero, or past the curve's order) as invalid configuration, naming the variable and never the key", async () => {
    const zero = `0x${"0".repeat(64)}`;
    const pastOrder = `0x${"f".repeat(64)}`;
    for (const key of [zero, pastOrder]) {
      const parsed = parseConfig({
        SETTLEMENT_ACCOUNT_KEY: key,
        SETTLEMENT_ACCOUNT_ADDRESS: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
        BURN_PLAN_SIGNER_KEY: key,
      });
      expect(parsed.ok).toBe(false);
      if (parsed.ok) continue;
      expect(parsed.problems).toContainEqual({
        variable: "SETTLEMENT_ACCOUNT_KEY",
        problem: "is not a valid secp256k1 private key",
      });
      expect(parsed.problems.map((p) => p.variable)).toContain("BURN_PLAN_SIGNER_KEY");
      const response = await misconfiguredApp(parsed.problems).request("/health");
      expect(response.status).toBe(500);
      const body = await response.text();
      expect(body).toContain("SETTLEMENT_ACCOUNT_KEY");
      expect(body).not.toContain(key.slice(2, 18));
    }
  });

  it("refuses a fee wallet key that is also an account of the settlement pool: two signers would take each other's nonces", () => {
    const first = "0x59c6995e998f97a5a0044966f0945389dc9c86dae88c7a8412f4603b6b78690d";
    const pooled = "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a";
    const other = "0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6";
    const parsed = parseConfig({
      SETTLEMENT_ACCOUNT_KEY: first,
      SETTLEMENT_ACCOUNT_KEYS: `${other},${pooled}`,
      BREB_FEE_WALLET_KEY: pooled,
    });
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.problems).toContainEqual({
      variable: "BREB_FEE_WALLET_KEY",
      problem: "signs for a settlement account; the fee wallet must be an account of its own",
    });
    expect(JSON.stringify(parsed.problems)).not.toContain(pooled.slice(2, 18));
  });
});
