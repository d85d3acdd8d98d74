import { route as createOrganization } from "../../functions/tenancy/admin-create-organization";
import { newId } from "../../lib/kernel/ids";
import { apiKeys } from "../../schema";
import type { Harness } from "./app";
import { TEST_ADMIN_TOKEN } from "./app";

export interface Tenant {
  organizationId: string;
  integrationId: string;
  apiKey: string;
}

/** A fresh organization with its first integration and key, made through the admin API. */
export async function createTenant(h: Harness, name = "Test wallet"): Promise<Tenant> {
  const response = await h.app.request("/admin/organizations", {
    method: "POST",
    headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify({ name }),
  });
  if (response.status !== 201)
    throw new Error(`admin create failed: ${response.status} ${await response.text()}`);
  // Read with the route's own schema directly: the bench (dev/bench) runs this outside vitest, so no bodyOf.
  const body = createOrganization.responses[201].content["application/json"].schema.parse(
    await response.json(),
  );
  return { organizationId: body.organization.id, integrationId: body.integration.id, apiKey: body.apiKey };
}

export function adminRequest(h: Harness, path: string, init: { method?: string; body?: unknown } = {}) {
  return h.app.request(path, {
    method: init.method ?? "GET",
    headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, "content-type": "application/json" },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
}

/** `count` keys stored for an integration as if issued there (no key behind them): for paging. */
export async function plantKeys(h: Harness, integrationId: string, organizationId: string, count: number) {
  await h.database.db.insert(apiKeys).values(
    Array.from({ length: count }, (_, i) => ({
      id: newId("key", h.clock),
      integrationId,
      organizationId,
      hash: `planted-${i}-${integrationId}`,
      start: "copm_test_PLNT",
      mode: "test",
      createdAt: h.clock.now(),
    })),
  );
}
