import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { route as createIntegration } from "../../functions/tenancy/admin-create-integration";
import {
  type AdminListApiKeysResponse,
  route as listApiKeys,
} from "../../functions/tenancy/admin-list-api-keys";
import type { Harness } from "../harness/app";
import { bodyOf } from "../harness/bodies";
import { type DashboardClient, signedInMember, twoOrganizations } from "../harness/dashboard";
import { partnerRequest } from "../harness/settlement";
import { adminRequest, plantKeys, type Tenant } from "../harness/tenants";

let h: Harness;
let acme: Tenant;
let other: Tenant;
beforeAll(async () => ({ h, acme, other } = await twoOrganizations()), 60_000);
afterAll(async () => h?.close());

async function keysOf(integrationId: string): Promise<AdminListApiKeysResponse["keys"]> {
  const response = await adminRequest(h, `/admin/integrations/${integrationId}/keys?limit=500`);
  return (await bodyOf(response, listApiKeys, 200)).keys;
}

/** What the API answers a partner call made with `apiKey`. */
async function apiStatus(apiKey: string): Promise<number> {
  const response = await partnerRequest(
    h,
    { organizationId: "", integrationId: "", apiKey },
    "/api/integrations/settlements/orders",
  );
  return response.status;
}

/** The whole key the issue answer shows in its `.secret` box. */
function shownSecret(html: string): string {
  const box = html.match(/<section class="secret"[\s\S]*?<\/section>/)?.[0] ?? "";
  const key = box.match(/<code id="issued-api-key">(copm_test_[0-9A-Za-z]+)<\/code>/)?.[1];
  if (!key) throw new Error("the answer shows no key in a .secret box");
  return key;
}

/** The table row of one key. */
function rowOf(html: string, keyId: string): string {
  const row = html.match(new RegExp(`<tr data-key-id="${keyId}">[\\s\\S]*?</tr>`))?.[0];
  if (!row) throw new Error(`no row for ${keyId}`);
  return row;
}

async function issueInPage(client: DashboardClient, tenant: Tenant, name = "") {
  await client.page(`/dashboard/keys?integration=${tenant.integrationId}`);
  const response = await client.post(`/dashboard/keys?integration=${tenant.integrationId}`, { name });
  expect(response.status).toBe(200);
  const html = await response.text();
  const apiKey = shownSecret(html);
  const key = (await keysOf(tenant.integrationId)).find(
    (k) => apiKey.startsWith(k.start) && k.name === (name || null),
  );
  if (!key) throw new Error("the issued key is not listed by the admin API");
  return { response, html, apiKey, key };
}

describe("the API keys page", () => {
  it("issues a key whose whole secret is shown once, in a copyable box with a warning, and works against the API", async () => {
    const client = await signedInMember(h, acme, "issuer");
    const before = await keysOf(acme.integrationId);
    const { response, html, apiKey, key } = await issueInPage(client, acme, "CI server");

    expect(await keysOf(acme.integrationId)).toHaveLength(before.length + 1);
    expect(html).toContain('data-copy-target="issued-api-key"');
    expect(html).toContain("no se volverá a mostrar");
    // The secret is in the page only: no redirect, no header, no log line carries it.
    expect(response.headers.get("location")).toBeNull();
    expect(response.headers.get("cache-control")).toBe("no-store");
    for (const [, value] of response.headers) expect(value).not.toContain(apiKey);
    expect(JSON.stringify(h.logLines)).not.toContain(apiKey);
    // Exactly once in the page, and the list already shows the new key, by its start only.
    expect(html.split(apiKey)).toHaveLength(2);
    expect(rowOf(html, key.id)).toContain("CI server");
    expect(rowOf(html, key.id)).toContain(`${key.start}…`);
    expect(rowOf(html, key.id)).not.toContain(apiKey);

    expect(await apiStatus(apiKey)).toBe(200);
  });

  it("never shows the secret again: the list shows the key's name, start, creation, last use and status", async () => {
    const client = await signedInMember(h, acme, "reader");
    const { apiKey, key } = await issueInPage(client, acme, "Reader's key");
    const fresh = rowOf(await client.page(`/dashboard/keys?integration=${acme.integrationId}`), key.id);
    expect(fresh).toContain("Nunca");
    expect(fresh).toContain('class="pill good"');

    h.clock.advance(61_000);
    expect(await apiStatus(apiKey)).toBe(200);
    await expect
      .poll(async () => (await keysOf(acme.integrationId)).find((k) => k.id === key.id)?.lastUsedAt)
      .toBe(h.clock.now().toISOString());
    const html = await client.page(`/dashboard/keys?integration=${acme.integrationId}`);
    expect(html).not.toContain(apiKey);
    const row = rowOf(html, key.id);
    expect(row).toContain("Reader&#39;s key");
    expect(row).toContain(`<time datetime="${h.clock.now().toISOString()}"`);
    expect(row).not.toContain("Nunca");
    expect(html).not.toContain('class="secret"');
  });

  it("revokes a key with a confirmed form: 303 to the list with a note, listed as revoked, and the API answers 401", async () => {
    const client = await signedInMember(h, acme, "revoker");
    const { apiKey, key } = await issueInPage(client, acme);
    const page = await client.page(`/dashboard/keys?integration=${acme.integrationId}`);
    const form = rowOf(page, key.id).match(/<form[^>]*>/)?.[0] ?? "";
    expect(form).toContain(`action="/dashboard/keys/${key.id}/revoke?integration=${acme.integrationId}"`);
    expect(form).toMatch(/data-confirm="¿Revocar la llave copm_test_/);

    const revoked = await client.post(
      `/dashboard/keys/${key.id}/revoke?integration=${acme.integrationId}`,
      {},
    );
    expect(revoked.status).toBe(303);
    expect(revoked.headers.get("location")).toBe(
      `/dashboard/keys?integration=${acme.integrationId}&done=revoked`,
    );
    const after = await client.page(revoked.headers.get("location") ?? "");
    expect(after).toContain('<p class="note" role="status">La llave quedó revocada');
    expect(rowOf(after, key.id)).toContain('class="pill bad"');
    expect(rowOf(after, key.id)).not.toContain("<form");
    expect(await apiStatus(apiKey)).toBe(401);
    expect((await keysOf(acme.integrationId)).find((k) => k.id === key.id)?.revokedAt).toBe(
      h.clock.now().toISOString(),
    );
  });

  it("shows a member none of another organization's keys, and revoking one is a 404 page that changes nothing", async () => {
    const owner = await signedInMember(h, acme, "owner");
    const { apiKey, key } = await issueInPage(owner, acme, "Acme production");
    const stranger = await signedInMember(h, other, "stranger");

    const own = await stranger.page("/dashboard/keys");
    expect(own).toContain(other.integrationId);
    expect(own).not.toContain(acme.integrationId);
    expect(own).not.toContain(key.id);
    expect(own).not.toContain(key.start);
    expect(own).not.toContain("Acme production");

    // Acme's integration named in the query: 404, exactly like an integration that does not exist.
    const foreign = await stranger.get(`/dashboard/keys?integration=${acme.integrationId}`);
    expect(foreign.status).toBe(404);
    const missing = await stranger.get("/dashboard/keys?integration=int_00000000000000000000000000");
    expect(missing.status).toBe(404);
    const foreignText = await foreign.text();
    expect(foreignText).not.toContain(key.start);
    expect(foreignText.replaceAll(acme.integrationId, "ID")).toBe(
      (await missing.text()).replaceAll("int_00000000000000000000000000", "ID"),
    );

    await stranger.page("/dashboard/keys");
    for (const integration of [other.integrationId, acme.integrationId]) {
      const refused = await stranger.post(`/dashboard/keys/${key.id}/revoke?integration=${integration}`, {});
      expect(refused.status).toBe(404);
      expect(await refused.text()).toContain("No existe en esta integración.");
    }
    const issued = await stranger.post(`/dashboard/keys?integration=${acme.integrationId}`, {
      name: "mine now",
    });
    expect(issued.status).toBe(404);
    expect((await keysOf(acme.integrationId)).map((k) => k.name)).not.toContain("mine now");

    expect(await apiStatus(apiKey)).toBe(200);
    expect((await keysOf(acme.integrationId)).find((k) => k.id === key.id)?.revokedAt).toBeNull();
    expect(rowOf(await owner.page(`/dashboard/keys?integration=${acme.integrationId}`), key.id)).toContain(
      'class="pill good"',
    );
  });

  it("keeps each integration of the organization apart: a sibling integration's page neither lists nor revokes the other's keys", async () => {
    const created = await adminRequest(h, `/admin/organizations/${acme.organizationId}/integrations`, {
      method: "POST",
      body: { name: "Acme second app" },
    });
    const sibling = (await bodyOf(created, createIntegration, 201)).integration.id;
    const client = await signedInMember(h, acme, "sibling");
    const { apiKey, key } = await issueInPage(client, acme, "first app key");

    const page = await client.page(`/dashboard/keys?integration=${sibling}`);
    expect(page).toContain(`<option value="${sibling}" selected`);
    expect(page).toContain("Esta integración no tiene llaves.");
    expect(page).not.toContain(key.id);
    const refused = await client.post(`/dashboard/keys/${key.id}/revoke?integration=${sibling}`, {});
    expect(refused.status).toBe(404);
    expect(await apiStatus(apiKey)).toBe(200);
  });

  it("refuses a POST without the CSRF token, or from another origin, with 403 and changes nothing", async () => {
    const client = await signedInMember(h, acme, "csrf");
    const { apiKey, key } = await issueInPage(client, acme);
    const count = (await keysOf(acme.integrationId)).length;

    const issue = `/dashboard/keys?integration=${acme.integrationId}`;
    const revoke = `/dashboard/keys/${key.id}/revoke?integration=${acme.integrationId}`;
    for (const response of [
      await client.post(issue, { name: "forged" }, { csrf: false }),
      await client.post(issue, { name: "forged" }, { csrf: "not-the-token" }),
      await client.post(issue, { name: "forged" }, { origin: "http://evil.test" }),
      await client.post(revoke, {}, { csrf: false }),
      await client.post(revoke, {}, { origin: "http://evil.test" }),
    ]) {
      expect(response.status).toBe(403);
      const html = await response.text();
      expect(html).toContain("El formulario venció o no vino de este panel.");
      expect(html).not.toMatch(/copm_test_[0-9A-Za-z]{49}/);
    }
    expect(await keysOf(acme.integrationId)).toHaveLength(count);
    expect(await apiStatus(apiKey)).toBe(200);
  });

  it("re-renders the form with the error (400) for a name over 200 characters and issues nothing", async () => {
    const client = await signedInMember(h, acme, "long");
    await client.page(`/dashboard/keys?integration=${acme.integrationId}`);
    const count = (await keysOf(acme.integrationId)).length;
    const name = "n".repeat(201);
    const response = await client.post(`/dashboard/keys?integration=${acme.integrationId}`, { name });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain('data-code="INVALID_REQUEST"');
    expect(html).toContain("el nombre tiene más de 200 caracteres");
    expect(html).toContain(`value="${name}"`);
    expect(html).not.toContain('class="secret"');
    expect(await keysOf(acme.integrationId)).toHaveLength(count);
  });

  it("answers in English when asked, and sends a signed-out visitor to sign in", async () => {
    const client = await signedInMember(h, acme, "english");
    const html = await client.page(`/dashboard/keys?integration=${acme.integrationId}&lang=en`);
    expect(html).toContain("<h1>API keys</h1>");
    expect(html).toContain("Issue key");
    const { apiKey } = await issueInPage(client, acme);
    expect(apiKey).toMatch(/^copm_test_/);

    const anonymous = await h.app.request("http://api.test/dashboard/keys");
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.get("location")).toBe("/dashboard/sign-in");
  });
});

describe("hostile form fields", () => {
  it("answers a NUL in the key's name with 400 naming the field, and issues no key (issue 20, finding 8)", async () => {
    const member = await signedInMember(h, acme, "nul-name");
    const before = await keysOf(acme.integrationId);
    await member.page(`/dashboard/keys?integration=${acme.integrationId}`);
    const response = await member.post(`/dashboard/keys?integration=${acme.integrationId}`, {
      name: "ops\u0000key",
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("NUL");
    expect(await keysOf(acme.integrationId)).toEqual(before);
  });
});

describe("a long list of keys", () => {
  it("shows 100 keys a page, newest first, with a link to the next page that shows the rest (issue 20, finding 10)", async () => {
    const created = await adminRequest(h, `/admin/organizations/${acme.organizationId}/integrations`, {
      method: "POST",
      body: { name: "Many keys" },
    });
    const { integration } = await bodyOf(created, createIntegration, 201);
    await plantKeys(h, integration.id, acme.organizationId, 105);
    const member = await signedInMember(h, acme, "many-keys");
    const rows = (html: string) =>
      [...html.matchAll(/<tr data-key-id="(key_[0-9A-Z]{26})">/g)].map((m) => m[1]);
    const first = await member.page(`/dashboard/keys?integration=${integration.id}`);
    expect(rows(first)).toHaveLength(100);
    const next = first.match(/<a href="([^"]+)" rel="next">/)?.[1]?.replaceAll("&amp;", "&");
    expect(next).toMatch(/cursor=key_/);
    const second = await member.page(next as string);
    expect(rows(second)).toHaveLength(5);
    expect(new Set([...rows(first), ...rows(second)]).size).toBe(105);
  });
});
