import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { route as createApiKey } from "../../functions/tenancy/admin-create-api-key";
import { route as createIntegration } from "../../functions/tenancy/admin-create-integration";
import { route as createOrganization } from "../../functions/tenancy/admin-create-organization";
import { route as listApiKeys } from "../../functions/tenancy/admin-list-api-keys";
import { route as listOrganizations } from "../../functions/tenancy/admin-list-organizations";
import { route as revokeApiKey } from "../../functions/tenancy/admin-revoke-api-key";
import { route as updateOrganization } from "../../functions/tenancy/admin-update-organization";
import { isWellFormedApiKey } from "../../lib/tenancy/api-key-format";
import { apiKeys } from "../../schema";
import { createHarness, type Harness } from "../harness/app";
import { bodyOf } from "../harness/bodies";
import { adminRequest, createTenant, plantKeys } from "../harness/tenants";

describe("admin API", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(() => h.close());

  it("creates an organization with its first integration and a key shown once", async () => {
    const response = await adminRequest(h, "/admin/organizations", {
      method: "POST",
      body: { name: "Wallet One" },
    });
    const body = await bodyOf(response, createOrganization, 201);
    expect(body.organization).toMatchObject({
      name: "Wallet One",
      intakePaused: false,
      burnPlanEnabled: false,
      serviceFeeBps: 100,
      settlementAccountActive: true,
    });
    expect(body.organization.id).toMatch(/^org_[0-9A-Z]{26}$/);
    expect(body.integration).toMatchObject({ organizationId: body.organization.id });
    expect(body.integration.id).toMatch(/^int_/);
    expect(isWellFormedApiKey(body.apiKey)).toBe(true);

    const [stored] = await h.database.db
      .select()
      .from(apiKeys)
      .where(eq(apiKeys.integrationId, String(body.integration.id)));
    expect(stored?.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored?.hash).not.toContain(body.apiKey);
    expect(body.apiKey.startsWith(String(stored?.start))).toBe(true);
    expect(JSON.stringify(stored)).not.toContain(body.apiKey);
  });

  it("lists organizations by id pages and reads one with its integrations", async () => {
    // Ids sort by creation time to the millisecond: A is later than every earlier organization, B later than A.
    h.clock.advance(1);
    const a = await createTenant(h, "Page A");
    h.clock.advance(1);
    const b = await createTenant(h, "Page B");
    const first = await bodyOf(
      await adminRequest(h, `/admin/organizations?limit=1&after=${a.organizationId}`),
      listOrganizations,
      200,
    );
    expect(first.organizations.map((o) => o.id)).toEqual([b.organizationId]);
    const one = await adminRequest(h, `/admin/organizations/${a.organizationId}`);
    expect(one.status).toBe(200);
    expect(await one.json()).toMatchObject({
      organization: { id: a.organizationId, name: "Page A" },
      integrations: [{ id: a.integrationId }],
    });
  });

  it("changes settings with PATCH and leaves the others as they were", async () => {
    const tenant = await createTenant(h);
    h.clock.advance(5_000);
    const response = await adminRequest(h, `/admin/organizations/${tenant.organizationId}`, {
      method: "PATCH",
      body: { burnPlanEnabled: true, serviceFeeBps: 150 },
    });
    const { organization } = await bodyOf(response, updateOrganization, 200);
    expect(organization).toMatchObject({
      burnPlanEnabled: true,
      serviceFeeBps: 150,
      intakePaused: false,
      settlementAccountActive: true,
    });
    expect(organization.updatedAt).not.toBe(organization.createdAt);
    const again = await adminRequest(h, `/admin/organizations/${tenant.organizationId}`, {
      method: "PATCH",
      body: { intakePaused: true, settlementAccountActive: false },
    });
    expect(await again.json()).toMatchObject({
      organization: {
        burnPlanEnabled: true,
        serviceFeeBps: 150,
        intakePaused: true,
        settlementAccountActive: false,
      },
    });
  });

  it("adds integrations, issues and lists keys, and revokes one", async () => {
    const tenant = await createTenant(h);
    const created = await adminRequest(h, `/admin/organizations/${tenant.organizationId}/integrations`, {
      method: "POST",
      body: { name: "Mini app" },
    });
    const { integration } = await bodyOf(created, createIntegration, 201);

    const issued = await adminRequest(h, `/admin/integrations/${integration.id}/keys`, {
      method: "POST",
      body: { name: "backend" },
    });
    const { key, apiKey } = await bodyOf(issued, createApiKey, 201);
    expect(isWellFormedApiKey(apiKey)).toBe(true);
    expect(apiKey.startsWith(key.start)).toBe(true);

    const listing = await adminRequest(h, `/admin/integrations/${integration.id}/keys`);
    // The key itself must not be anywhere in the raw answer (a parse would drop a field carrying it).
    const raw: unknown = await listing.clone().json();
    expect(JSON.stringify(raw)).not.toContain(apiKey);
    const listed = await bodyOf(listing, listApiKeys, 200);
    expect(listed.keys).toEqual([expect.objectContaining({ id: key.id, name: "backend", revokedAt: null })]);

    const revoked = await adminRequest(h, `/admin/integrations/${integration.id}/keys/${key.id}`, {
      method: "DELETE",
    });
    const { key: after } = await bodyOf(revoked, revokeApiKey, 200);
    expect(after.revokedAt).toBe(h.clock.now().toISOString());
    const twice = await adminRequest(h, `/admin/integrations/${integration.id}/keys/${key.id}`, {
      method: "DELETE",
    });
    expect((await bodyOf(twice, revokeApiKey, 200)).key.revokedAt).toBe(after.revokedAt);
  });
});

describe("an integration's keys, a page at a time (issue 20, finding 10)", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(() => h.close());

  it("answers 100 newest first by default, up to 500 with limit, and the rest through nextCursor, without repeats or gaps", async () => {
    const tenant = await createTenant(h);
    await plantKeys(h, tenant.integrationId, tenant.organizationId, 129);
    const read = async (query: string) => {
      const response = await adminRequest(h, `/admin/integrations/${tenant.integrationId}/keys${query}`);
      return bodyOf(response, listApiKeys, 200);
    };
    const first = await read("");
    expect(first.keys).toHaveLength(100);
    expect(first.nextCursor).toBe(first.keys.at(-1)?.id);
    const rest = await read(`?cursor=${first.nextCursor}`);
    expect(rest.keys).toHaveLength(30);
    expect(rest.nextCursor).toBeNull();
    const ids = [...first.keys, ...rest.keys].map((key) => key.id);
    expect(new Set(ids).size).toBe(130);
    expect(ids).toEqual([...ids].sort().reverse());
    expect((await read("?limit=500")).keys).toHaveLength(130);
    const small = await read("?limit=7");
    expect([small.keys.length, small.nextCursor]).toEqual([7, small.keys[6]?.id]);
    for (const bad of ["?limit=0", "?limit=501", "?limit=x", "?cursor=nope"]) {
      const response = await adminRequest(h, `/admin/integrations/${tenant.integrationId}/keys${bad}`);
      expect(response.status, bad).toBe(400);
    }
  });
});
