import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { route as getOrganization } from "../../functions/tenancy/admin-get-organization";
import { route as listApiKeys } from "../../functions/tenancy/admin-list-api-keys";
import { createHarness, type Harness } from "../harness/app";
import { bodyOf, errorOf } from "../harness/bodies";
import { adminRequest, createTenant } from "../harness/tenants";

describe("admin API errors", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(() => h.close());

  it("answers 404 ORGANIZATION_NOT_FOUND for an unknown organization, for read and update", async () => {
    for (const method of ["GET", "PATCH"]) {
      const response = await adminRequest(h, "/admin/organizations/org_00000000000000000000000000", {
        method,
        ...(method === "PATCH" ? { body: { intakePaused: true } } : {}),
      });
      expect(response.status).toBe(404);
      expect((await errorOf(response)).code).toBe("ORGANIZATION_NOT_FOUND");
    }
  });

  it("reports every failing field of a bad PATCH and changes nothing", async () => {
    const tenant = await createTenant(h);
    const response = await adminRequest(h, `/admin/organizations/${tenant.organizationId}`, {
      method: "PATCH",
      body: { serviceFeeBps: 5000, burnPlanEnabled: "yes", colour: "blue" },
    });
    expect(response.status).toBe(400);
    const { body } = await errorOf(response);
    expect(body.error.code).toBe("INVALID_REQUEST");
    expect(body.error.problems?.map((p) => p.field).sort()).toEqual([
      "body.burnPlanEnabled",
      "body.colour",
      "body.serviceFeeBps",
    ]);
    const after = await bodyOf(
      await adminRequest(h, `/admin/organizations/${tenant.organizationId}`),
      getOrganization,
      200,
    );
    expect(after.organization).toMatchObject({ serviceFeeBps: 100, burnPlanEnabled: false });
  });

  it("refuses an empty PATCH and an organization without a name", async () => {
    const tenant = await createTenant(h);
    const empty = await adminRequest(h, `/admin/organizations/${tenant.organizationId}`, {
      method: "PATCH",
      body: {},
    });
    expect(empty.status).toBe(400);
    const nameless = await adminRequest(h, "/admin/organizations", { method: "POST", body: { name: "   " } });
    expect(nameless.status).toBe(400);
    expect((await errorOf(nameless)).problems).toEqual([
      expect.objectContaining({ field: "body.name", code: "INVALID_REQUEST" }),
    ]);
  });

  it("answers 404 for keys of an unknown integration and for an unknown key", async () => {
    const tenant = await createTenant(h);
    const issue = await adminRequest(h, "/admin/integrations/int_00000000000000000000000000/keys", {
      method: "POST",
      body: {},
    });
    expect(issue.status).toBe(404);
    expect((await errorOf(issue)).code).toBe("INTEGRATION_NOT_FOUND");
    const revoke = await adminRequest(h, `/admin/integrations/${tenant.integrationId}/keys/key_nope`, {
      method: "DELETE",
    });
    expect(revoke.status).toBe(404);
    expect((await errorOf(revoke)).code).toBe("API_KEY_NOT_FOUND");
  });

  it("does not revoke a key through another integration's path", async () => {
    const a = await createTenant(h);
    const b = await createTenant(h);
    const keys = await bodyOf(
      await adminRequest(h, `/admin/integrations/${a.integrationId}/keys`),
      listApiKeys,
      200,
    );
    const keyId = keys.keys[0]?.id;
    const response = await adminRequest(h, `/admin/integrations/${b.integrationId}/keys/${keyId}`, {
      method: "DELETE",
    });
    expect(response.status).toBe(404);
    const still = await bodyOf(
      await adminRequest(h, `/admin/integrations/${a.integrationId}/keys`),
      listApiKeys,
      200,
    );
    expect(still.keys[0]?.revokedAt).toBeNull();
  });
});
