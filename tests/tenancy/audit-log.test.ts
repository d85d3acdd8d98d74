import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { route as listAuditLog } from "../../functions/audit/list-audit-log";
import { createHarness, type Harness, TEST_ADMIN_TOKEN } from "../harness/app";
import { bodyOf, errorOf } from "../harness/bodies";
import { partnerRequest } from "../harness/settlement";
import { adminRequest, createTenant, type Tenant } from "../harness/tenants";

/**
 * The audit log (issue 37): every change to an organization's keys' settings, members, webhook
 * endpoint and settings, with who (operator, key, member), when, from where, and before and after,
 * never a secret; readable by the organization only, paged by keyset.
 */
describe("the audit log", () => {
  let h: Harness;
  let tenant: Tenant;
  let stranger: Tenant;
  beforeAll(async () => {
    h = await createHarness();
    tenant = await createTenant(h);
    stranger = await createTenant(h, "Stranger");
  });
  afterAll(() => h.close());

  const log = async (who: Tenant, query = "") =>
    bodyOf(await partnerRequest(h, who, `/api/integrations/audit-log${query}`), listAuditLog, 200);

  it("records the operator's settings change with the fields before and after, and the address it came from", async () => {
    const response = await h.app.request(
      `/admin/organizations/${tenant.organizationId}`,
      {
        method: "PATCH",
        headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, "content-type": "application/json" },
        body: JSON.stringify({ fastTransfer: true, partnerFeeBps: 0 }),
      },
      { incoming: { socket: { remoteAddress: "198.51.100.20" } } },
    );
    expect(response.status).toBe(200);
    const [entry] = (await log(tenant, "?type=organization.updated")).data;
    expect(entry).toMatchObject({
      action: "organization.updated",
      actor: { type: "operator", id: "operator", ip: "198.51.100.20" },
      target: { type: "organization", id: tenant.organizationId },
      before: { fastTransfer: false, partnerFeeBps: 0 },
      after: { fastTransfer: true, partnerFeeBps: 0 },
    });
  });

  it("records a key's webhook changes as the key's, never the secret", async () => {
    const put = await partnerRequest(h, tenant, "/api/integrations/webhooks/endpoint", {
      method: "PUT",
      body: { url: "https://hooks.example.com/copm" },
    });
    expect(put.status).toBe(201);
    const { secret } = (await put.json()) as { secret: string };
    const rotated = await partnerRequest(h, tenant, "/api/integrations/webhooks/endpoint/rotate-secret", {
      method: "POST",
    });
    const { secret: newSecret } = (await rotated.json()) as { secret: string };
    await partnerRequest(h, tenant, "/api/integrations/webhooks/endpoint", {
      method: "PUT",
      body: { url: "https://hooks.example.com/copm/v2" },
    });
    const entries = (await log(tenant)).data.filter((entry) => entry.target.type === "webhook_endpoint");
    expect(entries.map((entry) => entry.action)).toEqual([
      "webhook_endpoint.set",
      "webhook_endpoint.secret_rotated",
      "webhook_endpoint.set",
    ]);
    expect(entries[0]).toMatchObject({
      actor: { type: "api_key" },
      before: { url: "https://hooks.example.com/copm" },
      after: { url: "https://hooks.example.com/copm/v2" },
    });
    expect(entries[2]).toMatchObject({ before: null, after: { url: "https://hooks.example.com/copm" } });
    const text = JSON.stringify(entries);
    for (const value of [secret, newSecret]) {
      expect(value.length).toBeGreaterThan(20);
      expect(text).not.toContain(value);
      expect(text).not.toContain(value.slice(-24));
    }
  });

  it("records members added and revoked", async () => {
    const added = await adminRequest(h, `/admin/organizations/${tenant.organizationId}/members`, {
      method: "POST",
      body: { email: "Ana@Example.com", role: "viewer" },
    });
    const { member } = (await added.json()) as { member: { id: string } };
    await adminRequest(h, `/admin/organizations/${tenant.organizationId}/members/${member.id}`, {
      method: "DELETE",
    });
    const entries = (await log(tenant)).data.filter((entry) => entry.target.id === member.id);
    expect(entries.map((entry) => [entry.action, entry.after?.email])).toEqual([
      ["member.revoked", "ana@example.com"],
      ["member.added", "ana@example.com"],
    ]);
  });

  it("shows an organization its own entries only, pages them by keyset, and filters them by type and time", async () => {
    const theirs = await log(stranger);
    expect(theirs.data.every((entry) => entry.target.id !== tenant.organizationId)).toBe(true);
    expect(JSON.stringify(theirs)).not.toContain("hooks.example.com");

    const all = await log(tenant);
    expect(all.data.length).toBeGreaterThanOrEqual(6);
    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await log(tenant, `?limit=2${cursor ? `&cursor=${cursor}` : ""}`);
      expect(page.data.length).toBeLessThanOrEqual(2);
      paged.push(...page.data.map((entry) => entry.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(paged).toEqual(all.data.map((entry) => entry.id));

    const later = new Date(h.clock.now().getTime() + 1_000).toISOString();
    expect((await log(tenant, `?from=${encodeURIComponent(later)}`)).data).toEqual([]);
    expect((await log(tenant, "?type=member.added")).data.map((entry) => entry.action)).toEqual([
      "member.added",
    ]);

    for (const bad of [
      "?cursor=nope",
      "?cursor=eyJza2lwIjo5fQ",
      "?type=everything",
      "?limit=500",
      "?from=0000-01-01T00:00:00Z",
    ]) {
      const refusal = await errorOf(
        await partnerRequest(h, tenant, `/api/integrations/audit-log${bad}`),
        400,
      );
      expect(refusal.code, bad).toBe("INVALID_REQUEST");
    }
  });

  it("needs the audit:read scope", async () => {
    const response = await adminRequest(h, `/admin/integrations/${tenant.integrationId}/keys`, {
      method: "POST",
      body: { scopes: ["settlements:read"] },
    });
    const { apiKey } = (await response.json()) as { apiKey: string };
    const refusal = await errorOf(
      await h.app.request("/api/integrations/audit-log", { headers: { authorization: `Bearer ${apiKey}` } }),
      403,
    );
    expect(refusal).toMatchObject({ code: "INSUFFICIENT_SCOPE", requiredScope: "audit:read" });
  });

  it("records keys issued, given an expiry and revoked, with their limits and never the key", async () => {
    const issued = await adminRequest(h, `/admin/integrations/${tenant.integrationId}/keys`, {
      method: "POST",
      body: { name: "rotating", scopes: ["swaps:read"], allowedIps: ["203.0.113.0/24"] },
    });
    const { key, apiKey } = (await issued.json()) as { key: { id: string }; apiKey: string };
    const inADay = new Date(h.clock.now().getTime() + 86_400_000).toISOString();
    const expiring = await adminRequest(h, `/admin/integrations/${tenant.integrationId}/keys/${key.id}`, {
      method: "PATCH",
      body: { expiresAt: inADay },
    });
    expect(expiring.status).toBe(200);
    await adminRequest(h, `/admin/integrations/${tenant.integrationId}/keys/${key.id}`, { method: "DELETE" });
    const entries = (await log(tenant)).data.filter((entry) => entry.target.id === key.id);
    expect(entries.map((entry) => entry.action)).toEqual([
      "api_key.revoked",
      "api_key.updated",
      "api_key.issued",
    ]);
    expect(entries[2]).toMatchObject({
      actor: { type: "operator" },
      after: { name: "rotating", scopes: ["swaps:read"], allowedIps: ["203.0.113.0/24"], expiresAt: null },
    });
    expect(entries[1]).toMatchObject({ before: { expiresAt: null }, after: { expiresAt: inADay } });
    expect(entries[0]?.after?.revokedAt).toEqual(expect.any(String));
    expect(JSON.stringify(entries)).not.toContain(apiKey);
    expect(JSON.stringify(entries)).not.toContain(apiKey.slice(-20));
  });
});
