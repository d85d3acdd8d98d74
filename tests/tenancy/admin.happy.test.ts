import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isWellFormedApiKey } from "../../lib/tenancy/api-key-format";
import { apiKeys } from "../../schema";
import { createHarness, type Harness } from "../harness/app";
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
    expect(response.status).toBe(201);
    const body = (await response.json()) as {
      organization: Record<string, unknown>;
      integration: Record<string, unknown>;
      apiKey: string;
    };
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
    const first = (await (
      await adminRequest(h, `/admin/organizations?limit=1&after=${a.organizationId}`)
    ).json()) as {
      organizations: Array<{ id: string }>;
    };
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
    expect(response.status).toBe(200);
    const { organization } = (await response.json()) as { organization: Record<string, unknown> };
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
    expect(created.status).toBe(201);
    const { integration } = (await created.json()) as { integration: { id: string } };

    const issued = await adminRequest(h, `/admin/integrations/${integration.id}/keys`, {
      method: "POST",
      body: { name: "backend" },
    });
    expect(issued.status).toBe(201);
    const { key, apiKey } = (await issued.json()) as { key: { id: string; start: string }; apiKey: string };
    expect(isWellFormedApiKey(apiKey)).toBe(true);
    expect(apiKey.startsWith(key.start)).toBe(true);

    const listed = (await (await adminRequest(h, `/admin/integrations/${integration.id}/keys`)).json()) as {
      keys: Array<Record<string, unknown>>;
    };
    expect(listed.keys).toEqual([expect.objectContaining({ id: key.id, name: "backend", revokedAt: null })]);
    expect(JSON.stringify(listed)).not.toContain(apiKey);

    const revoked = await adminRequest(h, `/admin/integrations/${integration.id}/keys/${key.id}`, {
      method: "DELETE",
    });
    expect(revoked.status).toBe(200);
    const { key: after } = (await revoked.json()) as { key: { revokedAt: string | null } };
    expect(after.revokedAt).toBe(h.clock.now().toISOString());
    const twice = await adminRequest(h, `/admin/integrations/${integration.id}/keys/${key.id}`, {
      method: "DELETE",
    });
    expect(((await twice.json()) as { key: { revokedAt: string } }).key.revokedAt).toBe(after.revokedAt);
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
      expect(response.status, await response.clone().text()).toBe(200);
      return (await response.json()) as { keys: Array<{ id: string }>; nextCursor: string | null };
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
