import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cloudflareClientAddress, socketClientAddress } from "../../lib/http/client-address";
import { createHarness, type Harness } from "../harness/app";
import { createTenant } from "../harness/tenants";

describe("rate limits", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({
      env: { RATE_LIMIT_PER_KEY_PER_MINUTE: "3", RATE_LIMIT_PER_IP_PER_MINUTE: "4" },
    });
  });
  afterAll(() => h.close());

  const network = (apiKey: string) =>
    h.app.request("/api/integrations/sandbox/network", { headers: { authorization: `Bearer ${apiKey}` } });

  it("limits each API key on its own, answers 429 RATE_LIMITED with Retry-After, and resets each window", async () => {
    h.clock.set(new Date("2026-11-22T13:00:00Z"));
    const a = await createTenant(h, "A");
    const b = await createTenant(h, "B");
    for (let i = 0; i < 3; i++) expect((await network(a.apiKey)).status).toBe(200);
    const limited = await network(a.apiKey);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("60");
    expect(await limited.json()).toMatchObject({ error: { code: "RATE_LIMITED", retryable: true } });
    expect((await network(b.apiKey)).status).toBe(200);
    h.clock.advance(60_000);
    expect((await network(a.apiKey)).status).toBe(200);
  });

  it("limits routes without a key per client address (the socket's, off Cloudflare), and counts failed key attempts there too", async () => {
    h.clock.set(new Date("2026-11-22T14:00:00Z"));
    const from = (address: string) => ({ incoming: { socket: { remoteAddress: address } } });
    for (let i = 0; i < 4; i++)
      expect((await h.app.request("/health", {}, from("198.51.100.7"))).status).toBe(200);
    const limited = await h.app.request("/health", {}, from("198.51.100.7"));
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("60");
    expect((await h.app.request("/health", {}, from("198.51.100.8"))).status).toBe(200);

    const guess = () =>
      h.app.request(
        "/api/integrations/sandbox/network",
        { headers: { authorization: "Bearer copm_live_guess" } },
        from("203.0.113.9"),
      );
    for (let i = 0; i < 4; i++) expect((await guess()).status).toBe(401);
    expect((await guess()).status).toBe(429);
  });

  it("does not trust a CF-Connecting-IP header off Cloudflare: forging a new one per request does not escape the limit", async () => {
    h.clock.set(new Date("2026-11-22T15:00:00Z"));
    const socket = { incoming: { socket: { remoteAddress: "192.0.2.50" } } };
    const forged = (i: number) => ({ headers: { "cf-connecting-ip": `10.0.0.${i}` } });
    for (let i = 0; i < 4; i++) expect((await h.app.request("/health", forged(i), socket)).status).toBe(200);
    expect((await h.app.request("/health", forged(99), socket)).status).toBe(429);
  });

  it("trusts CF-Connecting-IP on Cloudflare only, where the edge sets it", () => {
    const request = new Request("https://api.example/health", {
      headers: { "cf-connecting-ip": "198.51.100.20" },
    });
    expect(cloudflareClientAddress(request, {})).toBeUndefined();
    const onCloudflare = Object.assign(request.clone(), { cf: { colo: "BOG" } });
    expect(cloudflareClientAddress(onCloudflare, {})).toBe("198.51.100.20");
    expect(socketClientAddress(request, {})).toBeUndefined();
  });
});
