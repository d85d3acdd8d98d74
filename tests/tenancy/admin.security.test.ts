import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { route as getOrganization } from "../../functions/tenancy/admin-get-organization";
import { createHarness, type Harness, TEST_ADMIN_TOKEN } from "../harness/app";
import { bodyOf } from "../harness/bodies";
import { adminRequest, createTenant } from "../harness/tenants";

describe("admin API security", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(() => h.close());

  const attempts = (apiKey: string): Array<[string, Record<string, string>]> => [
    ["no token", {}],
    ["a partner API key", { authorization: `Bearer ${apiKey}` }],
    [
      "the admin token with a character changed",
      { authorization: `Bearer ${TEST_ADMIN_TOKEN.slice(0, -1)}x` },
    ],
    ["the admin token as Basic auth", { authorization: `Basic ${TEST_ADMIN_TOKEN}` }],
  ];

  it("answers 401 with { error } and does nothing for every credential but the admin token", async () => {
    const tenant = await createTenant(h);
    for (const [what, headers] of attempts(tenant.apiKey)) {
      const list = await h.app.request("/admin/organizations", { headers });
      expect(list.status, what).toBe(401);
      // The admin 401 is `{ error: string }`, not the error envelope (its schema is not exported).
      const body: unknown = await list.json();
      expect(body, what).toMatchObject({ error: expect.any(String) });

      const patch = await h.app.request(`/admin/organizations/${tenant.organizationId}`, {
        method: "PATCH",
        headers: { ...headers, "content-type": "application/json" },
        body: JSON.stringify({ intakePaused: true }),
      });
      expect(patch.status, what).toBe(401);
    }
    const after = await h.app.request(`/admin/organizations/${tenant.organizationId}`, {
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    });
    expect((await bodyOf(after, getOrganization, 200)).organization.intakePaused).toBe(false);
  });

  it("answers a new API key with Cache-Control: no-store, so no cache on the way keeps it (issue 37, finding 5)", async () => {
    const created = await adminRequest(h, "/admin/organizations", {
      method: "POST",
      body: { name: "No-store" },
    });
    expect(created.status).toBe(201);
    const { integration } = (await created.json()) as { integration: { id: string } };
    const issued = await adminRequest(h, `/admin/integrations/${integration.id}/keys`, {
      method: "POST",
      body: { name: "backend" },
    });
    expect(issued.status).toBe(201);
    expect({
      organization: created.headers.get("cache-control"),
      key: issued.headers.get("cache-control"),
    }).toEqual({ organization: "no-store", key: "no-store" });
  });

  it("refuses every admin request when no ADMIN_TOKEN is configured", async () => {
    const noAdmin = await createHarness({ env: { ADMIN_TOKEN: "" } });
    try {
      const response = await noAdmin.app.request("/admin/organizations", {
        headers: { authorization: "Bearer " },
      });
      expect(response.status).toBe(401);
    } finally {
      await noAdmin.close();
    }
  });
});
