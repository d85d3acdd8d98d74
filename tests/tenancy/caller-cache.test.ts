import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CALLER_CACHE_MS, CallerCache } from "../../lib/tenancy/caller-cache";
import { apiKeys } from "../../schema";
import { createHarness, type Harness } from "../harness/app";
import { adminRequest, createTenant, type Tenant } from "../harness/tenants";

/**
 * The key's caller kept in the isolate (docs/tenancy.md, "Keys"): a busy key's requests skip the
 * lookup for CALLER_CACHE_MS; revoking it or changing its organization here takes effect at once; a
 * revocation made elsewhere (another isolate) takes effect once the entry is that old.
 */
describe("the isolate's cache of resolved keys", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(() => h.close());

  const network = (tenant: Tenant) =>
    h.app.request("/api/integrations/webhooks/events", {
      headers: { authorization: `Bearer ${tenant.apiKey}` },
    });
  const lookups = () => h.queries.filter((sql) => /from "api_keys"/.test(sql)).length;

  it("resolves a key once, then answers from the cache until the entry is CALLER_CACHE_MS old", async () => {
    const tenant = await createTenant(h, "Cached");
    h.queries.length = 0;
    expect((await network(tenant)).status).toBe(200);
    expect((await network(tenant)).status).toBe(200);
    expect(lookups()).toBe(1);
    h.clock.advance(CALLER_CACHE_MS);
    expect((await network(tenant)).status).toBe(200);
    expect(lookups()).toBe(2);
  });

  it("stops a key revoked through this app at once", async () => {
    const tenant = await createTenant(h, "Revoked here");
    expect((await network(tenant)).status).toBe(200);
    const [key] = await h.database.db
      .select()
      .from(apiKeys)
      .where(eq(apiKeys.integrationId, tenant.integrationId));
    const revoked = await adminRequest(h, `/admin/integrations/${tenant.integrationId}/keys/${key?.id}`, {
      method: "DELETE",
    });
    expect(revoked.status).toBe(200);
    expect((await network(tenant)).status).toBe(401);
  });

  it("stops a key revoked elsewhere once its entry is CALLER_CACHE_MS old, not before", async () => {
    const tenant = await createTenant(h, "Revoked elsewhere");
    expect((await network(tenant)).status).toBe(200);
    // Another isolate's revocation: the database says so, this app's cache does not know yet.
    await h.database.db
      .update(apiKeys)
      .set({ revokedAt: h.clock.now() })
      .where(eq(apiKeys.integrationId, tenant.integrationId));
    h.clock.advance(CALLER_CACHE_MS - 1);
    expect((await network(tenant)).status).toBe(200);
    h.clock.advance(1);
    expect((await network(tenant)).status).toBe(401);
  });

  it("gives a key its organization's new settings at once when they change through this app", async () => {
    const tenant = await createTenant(h, "Paused");
    expect((await network(tenant)).status).toBe(200);
    h.queries.length = 0;
    const paused = await adminRequest(h, `/admin/organizations/${tenant.organizationId}`, {
      method: "PATCH",
      body: { intakePaused: true },
    });
    expect(paused.status).toBe(200);
    expect((await network(tenant)).status).toBe(200);
    // The cached caller went with the change: the next request read the key and its settings again.
    expect(lookups()).toBe(1);
  });

  it("does not put back a caller read before a revocation evicted it (a lookup racing the revoke)", () => {
    const cache = new CallerCache();
    const now = new Date("2026-11-25T00:00:00Z");
    const caller = {
      organizationId: "org_1",
      integrationId: "int_1",
      keyId: "key_1",
      organization: {
        intakePaused: false,
        burnPlanEnabled: true,
        serviceFeeBps: 0,
        fastTransfer: false,
        settlementAccountActive: true,
        partnerFeeBps: 0,
        partnerFeeAddress: null,
        defaultSourceChainId: null,
        perUserDailyLimitUsd: null,
        perUserMonthlyLimitUsd: null,
        organizationDailyLimitUsd: null,
      },
    };
    const lookedUpAt = cache.evictions;
    cache.evict((cached) => cached.keyId === "key_1");
    cache.set("test", "hash", { caller, lastUsedAt: null, cachedAt: now.getTime() }, lookedUpAt);
    expect(cache.get("test", "hash", now)).toBeUndefined();
    cache.set("test", "hash", { caller, lastUsedAt: null, cachedAt: now.getTime() }, cache.evictions);
    expect(cache.get("test", "hash", now)?.caller).toEqual(caller);
  });
});
