import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { route as createKey } from "../../functions/tenancy/admin-create-api-key";
import { route as updateKey } from "../../functions/tenancy/admin-update-api-key";
import { openApiDocument } from "../../lib/composition/app";
import { CALLER_CACHE_MS } from "../../lib/tenancy/caller-cache";
import { MAX_ACTIVE_KEYS } from "../../lib/tenancy/integrations";
import { API_SCOPE_NAMES, OPERATION_SCOPES } from "../../lib/tenancy/scopes";
import { createHarness, type Harness } from "../harness/app";
import { bodyOf, errorOf } from "../harness/bodies";
import { adminRequest, createTenant, type Tenant } from "../harness/tenants";

/**
 * Restricted keys (issue 37): a key's scopes, its client address allow list and its expiry, each
 * enforced on every partner operation, and the OpenAPI document naming each operation's scope.
 */
describe("restricted API keys", () => {
  let h: Harness;
  let tenant: Tenant;
  beforeAll(async () => {
    h = await createHarness();
    tenant = await createTenant(h);
  });
  afterAll(() => h.close());

  const issue = async (body: Record<string, unknown>) => {
    const response = await adminRequest(h, `/admin/integrations/${tenant.integrationId}/keys`, {
      method: "POST",
      body,
    });
    return bodyOf(response, createKey, 201);
  };
  /** A partner request with `apiKey`, from the client address `from` (the socket's, as on Node). */
  const call = (
    apiKey: string,
    path: string,
    init: { method?: string; body?: unknown; from?: string } = {},
  ) =>
    h.app.request(
      path,
      {
        method: init.method ?? "GET",
        headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
        ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      },
      { incoming: { socket: { remoteAddress: init.from ?? "127.0.0.1" } } },
    );

  it("lets a key do only what its scopes name, and names the scope a refused operation needs", async () => {
    const issued = await issue({ name: "reporting", scopes: ["settlements:read", "statements:read"] });
    expect(issued.key).toMatchObject({
      scopes: ["settlements:read", "statements:read"],
      allowedIps: null,
      expiresAt: null,
    });
    expect((await call(issued.apiKey, "/api/integrations/settlements/orders")).status).toBe(200);
    const refusals: Array<[string, string, string]> = [
      ["POST", "/api/integrations/settlements/quotes", "settlements:write"],
      ["GET", "/api/integrations/webhooks/endpoint", "webhooks:read"],
      ["GET", "/api/integrations/swaps", "swaps:read"],
      ["GET", "/api/integrations/breb/payouts", "payouts:read"],
    ];
    for (const [method, path, scope] of refusals) {
      const response = await call(issued.apiKey, path, {
        method,
        ...(method === "POST" ? { body: { sendAmountUsdc: "10" } } : {}),
      });
      const refusal = await errorOf(response, 403);
      expect(refusal, `${method} ${path}`).toMatchObject({
        code: "INSUFFICIENT_SCOPE",
        requiredScope: scope,
      });
    }
    // A key issued without scopes may do everything, as every key did before.
    const whole = await issue({ name: "everything" });
    expect(whole.key.scopes).toBeNull();
    expect((await call(whole.apiKey, "/api/integrations/webhooks/endpoint")).status).not.toBe(403);
  });

  it("accepts a key only from the addresses its allow list names, IPv4 and IPv6, IPv4-mapped included", async () => {
    const issued = await issue({ allowedIps: ["203.0.113.0/24", "2001:db8::/32", "198.51.100.7"] });
    expect(issued.key.allowedIps).toEqual(["203.0.113.0/24", "2001:db8::/32", "198.51.100.7/32"]);
    const from = async (address: string) =>
      (await call(issued.apiKey, "/api/integrations/settlements/orders", { from: address })).status;
    for (const inside of [
      "203.0.113.7",
      "::ffff:203.0.113.200",
      "2001:db8::1",
      "2001:db8:ffff::9",
      "198.51.100.7",
    ]) {
      expect(await from(inside), inside).toBe(200);
    }
    for (const outside of ["203.0.114.1", "198.51.100.8", "2001:db9::1", "::1", "127.0.0.1"]) {
      const response = await call(issued.apiKey, "/api/integrations/settlements/orders", { from: outside });
      expect((await errorOf(response, 403)).code, outside).toBe("IP_NOT_ALLOWED");
    }
  });

  it("stops a key at its expiresAt (a rotation's overlap), as if revoked", async () => {
    const inAnHour = new Date(h.clock.now().getTime() + 3_600_000).toISOString();
    const issued = await issue({ expiresAt: inAnHour });
    expect(issued.key.expiresAt).toBe(inAnHour);
    expect((await call(issued.apiKey, "/api/integrations/settlements/orders")).status).toBe(200);
    h.clock.advance(3_600_000);
    expect((await call(issued.apiKey, "/api/integrations/settlements/orders")).status).toBe(401);
  });

  it("refuses limits that are not limits, naming the field, and issues nothing", async () => {
    const keysBefore = await adminRequest(h, `/admin/integrations/${tenant.integrationId}/keys`);
    const countBefore = ((await keysBefore.json()) as { keys: unknown[] }).keys.length;
    const past = new Date(h.clock.now().getTime() - 1_000).toISOString();
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ scopes: ["settlements:admin"] }, "body.scopes.0"],
      [{ scopes: [] }, "body.scopes"],
      [{ allowedIps: ["300.1.1.1"] }, "body.allowedIps.0"],
      [{ allowedIps: ["10.0.0.0/33"] }, "body.allowedIps.0"],
      [{ allowedIps: ["example.com"] }, "body.allowedIps.0"],
      [{ allowedIps: Array.from({ length: 51 }, (_, i) => `10.0.0.${i}`) }, "body.allowedIps"],
      [{ expiresAt: past }, "body.expiresAt"],
      [{ expiresAt: "tomorrow" }, "body.expiresAt"],
      // Past year 9999 once in UTC: the database cannot hold it (a 500 before).
      [{ expiresAt: "9999-12-31T23:59:59-23:59" }, "body.expiresAt"],
    ];
    for (const [body, field] of bad) {
      const response = await adminRequest(h, `/admin/integrations/${tenant.integrationId}/keys`, {
        method: "POST",
        body,
      });
      const refusal = await errorOf(response, 400);
      expect(
        refusal.problems?.map((problem) => problem.field),
        JSON.stringify(body),
      ).toContain(field);
    }
    const keysAfter = await adminRequest(h, `/admin/integrations/${tenant.integrationId}/keys`);
    expect(((await keysAfter.json()) as { keys: unknown[] }).keys.length).toBe(countBefore);
  });

  describe("setting an expiry on an existing key (PATCH /admin/integrations/{id}/keys/{keyId})", () => {
    const patch = (integrationId: string, keyId: string, body: unknown) =>
      adminRequest(h, `/admin/integrations/${integrationId}/keys/${keyId}`, { method: "PATCH", body });
    const works = async (apiKey: string) =>
      (await call(apiKey, "/api/integrations/settlements/orders")).status;

    it("rotates with overlap: the old key works until its new expiry, 401 after, also where it was resolved just before", async () => {
      const old = await issue({ name: "old" });
      const replacement = await issue({ name: "new" });
      // Resolved (and kept by this isolate) before the change: the change must evict it.
      expect(await works(old.apiKey)).toBe(200);
      const at = new Date(h.clock.now().getTime() + CALLER_CACHE_MS / 2).toISOString();
      const answer = await bodyOf(
        await patch(tenant.integrationId, old.key.id, { expiresAt: at }),
        updateKey,
        200,
      );
      expect(answer.key).toMatchObject({ id: old.key.id, expiresAt: at, revokedAt: null, scopes: null });
      expect(await works(old.apiKey)).toBe(200);
      h.clock.advance(CALLER_CACHE_MS / 2 - 1);
      expect(await works(old.apiKey)).toBe(200);
      h.clock.advance(1);
      expect(await works(old.apiKey)).toBe(401);
      expect(await works(replacement.apiKey)).toBe(200);
    });

    it("moves an expiry, or clears it with null, and takes an offset", async () => {
      const issued = await issue({ expiresAt: new Date(h.clock.now().getTime() + 60_000).toISOString() });
      const later = new Date(h.clock.now().getTime() + 3_600_000);
      // The same instant written in UTC+5.
      const withOffset = `${new Date(later.getTime() + 5 * 3_600_000).toISOString().slice(0, 19)}+05:00`;
      const moved = await bodyOf(
        await patch(tenant.integrationId, issued.key.id, { expiresAt: withOffset }),
        updateKey,
        200,
      );
      expect(moved.key.expiresAt).toBe(new Date(withOffset).toISOString());
      h.clock.advance(60_000);
      expect(await works(issued.apiKey)).toBe(200);
      const cleared = await bodyOf(
        await patch(tenant.integrationId, issued.key.id, { expiresAt: null }),
        updateKey,
        200,
      );
      expect(cleared.key.expiresAt).toBeNull();
      h.clock.advance(3_600_000);
      expect(await works(issued.apiKey)).toBe(200);
    });

    it("answers another integration's key, or an unknown one, 404 and changes nothing", async () => {
      const issued = await issue({ name: "mine" });
      const stranger = await createTenant(h, "Stranger");
      const soon = new Date(h.clock.now().getTime() + 60_000).toISOString();
      for (const [integrationId, keyId] of [
        [stranger.integrationId, issued.key.id],
        [tenant.integrationId, "key_00000000000000000000000000"],
        ["int_00000000000000000000000000", issued.key.id],
      ] as const) {
        const refusal = await errorOf(await patch(integrationId, keyId, { expiresAt: soon }), 404);
        expect(refusal.code).toBe("API_KEY_NOT_FOUND");
      }
      // Nor the other way round: the stranger's own key named under this integration.
      const listed = await adminRequest(h, `/admin/integrations/${stranger.integrationId}/keys`);
      const [theirKey] = ((await listed.json()) as { keys: Array<{ id: string }> }).keys;
      const theirs = await errorOf(
        await patch(tenant.integrationId, theirKey?.id ?? "", { expiresAt: soon }),
        404,
      );
      expect(theirs.code).toBe("API_KEY_NOT_FOUND");
      h.clock.advance(120_000);
      expect(await works(issued.apiKey)).toBe(200);
      expect(await works(stranger.apiKey)).toBe(200);
    });

    it("refuses a past, a malformed or a missing expiry with 400 naming body.expiresAt, and changes nothing", async () => {
      const issued = await issue({ name: "kept" });
      const past = new Date(h.clock.now().getTime() - 1_000).toISOString();
      const now = h.clock.now().toISOString();
      for (const body of [
        { expiresAt: past },
        { expiresAt: now },
        { expiresAt: "tomorrow" },
        { expiresAt: "2030-02-30T00:00:00Z" },
        { expiresAt: "9999-12-31T23:59:59-23:59" },
        { expiresAt: 1_900_000_000 },
        {},
      ]) {
        const refusal = await errorOf(await patch(tenant.integrationId, issued.key.id, body), 400);
        expect(refusal.code, JSON.stringify(body)).toBe("INVALID_REQUEST");
        expect(
          refusal.problems?.map((problem) => problem.field),
          JSON.stringify(body),
        ).toContain("body.expiresAt");
      }
      const extra = await errorOf(
        await patch(tenant.integrationId, issued.key.id, { expiresAt: null, scopes: ["swaps:read"] }),
        400,
      );
      expect(extra.problems?.map((problem) => problem.field)).toContain("body.scopes");
      const listed = await adminRequest(h, `/admin/integrations/${tenant.integrationId}/keys`);
      const keys = ((await listed.json()) as { keys: Array<{ id: string; expiresAt: string | null }> }).keys;
      expect(keys.find((key) => key.id === issued.key.id)?.expiresAt).toBeNull();
    });

    it("refuses a revoked or expired key with 409 API_KEY_INACTIVE: neither comes back", async () => {
      const revoked = await issue({ name: "revoked" });
      await adminRequest(h, `/admin/integrations/${tenant.integrationId}/keys/${revoked.key.id}`, {
        method: "DELETE",
      });
      const expiring = await issue({ expiresAt: new Date(h.clock.now().getTime() + 60_000).toISOString() });
      h.clock.advance(60_000);
      const later = new Date(h.clock.now().getTime() + 3_600_000).toISOString();
      for (const key of [revoked, expiring]) {
        for (const expiresAt of [later, null]) {
          const refusal = await errorOf(await patch(tenant.integrationId, key.key.id, { expiresAt }), 409);
          expect(refusal.code).toBe("API_KEY_INACTIVE");
        }
        expect(await works(key.apiKey)).toBe(401);
      }
    });
  });

  it("names each partner operation's scope in the OpenAPI document, from the one table", async () => {
    const document = (await openApiDocument("http://127.0.0.1:8787")) as unknown as {
      paths: Record<string, Record<string, { operationId?: string; security?: unknown }>>;
    };
    const partnerOperations = Object.entries(document.paths)
      .filter(([path]) => path.startsWith("/api/integrations/"))
      .flatMap(([, operations]) => Object.values(operations));
    expect(partnerOperations.length).toBeGreaterThan(30);
    for (const operation of partnerOperations) {
      const scope = OPERATION_SCOPES[operation.operationId ?? ""];
      expect(scope, operation.operationId).toBeDefined();
      expect(operation.security, operation.operationId).toEqual([{ bearerAuth: [scope] }]);
    }
    // No stale entry: every operation the table names exists, and every scope is some operation's.
    const ids = new Set(partnerOperations.map((operation) => operation.operationId));
    expect(Object.keys(OPERATION_SCOPES).filter((id) => !ids.has(id))).toEqual([]);
    expect(API_SCOPE_NAMES.filter((scope) => !Object.values(OPERATION_SCOPES).includes(scope))).toEqual([]);
  });

  it("holds an integration to 25 active keys: the 26th is 409 API_KEY_LIMIT_REACHED until one is revoked or expires", async () => {
    const own = await createTenant(h, "Many keys");
    const issueOwn = (body: Record<string, unknown> = {}) =>
      adminRequest(h, `/admin/integrations/${own.integrationId}/keys`, { method: "POST", body });
    // The organization's first key is one of the 25.
    const issued: string[] = [];
    for (let index = 1; index < MAX_ACTIVE_KEYS; index++) {
      issued.push((await bodyOf(await issueOwn(), createKey, 201)).key.id);
    }
    expect((await errorOf(await issueOwn(), 409)).code).toBe("API_KEY_LIMIT_REACHED");
    const revoked = await adminRequest(h, `/admin/integrations/${own.integrationId}/keys/${issued[0]}`, {
      method: "DELETE",
    });
    expect(revoked.status).toBeLessThan(300);
    // Freed by the revocation; an expiring key counts while it works.
    const soon = new Date(h.clock.now().getTime() + 60_000).toISOString();
    expect((await issueOwn({ expiresAt: soon })).status).toBe(201);
    expect((await errorOf(await issueOwn(), 409)).code).toBe("API_KEY_LIMIT_REACHED");
    h.clock.advance(60_000);
    expect((await issueOwn()).status).toBe(201);
  });

  it("limits an organization's requests over all its keys, so minting keys buys no budget", async () => {
    const busy = await createTenant(h, "Busy");
    const keys = [busy.apiKey];
    for (let index = 0; index < 2; index++) {
      const response = await adminRequest(h, `/admin/integrations/${busy.integrationId}/keys`, {
        method: "POST",
        body: {},
      });
      keys.push((await bodyOf(response, createKey, 201)).apiKey);
    }
    // 1,200 a minute per organization (RATE_LIMIT_PER_ORGANIZATION_PER_MINUTE), 600 per key: three
    // keys at 400 each reach the organization's limit, none its own.
    let refused = 0;
    for (let round = 0; round < 410; round++) {
      for (const key of keys) {
        const response = await call(key, "/api/integrations/settlements/chains");
        if (response.status === 429) refused += 1;
      }
    }
    expect(refused).toBe(3 * 410 - 1200);
    // Another organization is not held by this one's limit.
    expect((await call(tenant.apiKey, "/api/integrations/settlements/orders")).status).toBe(200);
  });
});
