import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { route as createIntegration } from "../../functions/tenancy/admin-create-integration";
import {
  type AdminListApiKeysResponse,
  route as listApiKeys,
} from "../../functions/tenancy/admin-list-api-keys";
import { API_SCOPE_NAMES, API_SCOPES } from "../../lib/tenancy/scopes";
import type { Harness } from "../harness/app";
import { bodyOf, errorOf } from "../harness/bodies";
import { type DashboardClient, signedInMember, twoOrganizations } from "../harness/dashboard";
import { partnerRequest } from "../harness/settlement";
import { adminRequest, createTenant, plantKeys, type Tenant } from "../harness/tenants";

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
    const form = rowOf(page, key.id).match(/<form[^>]*\/revoke\?[^>]*>/)?.[0] ?? "";
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
    expect(html).toContain(
      '<p class="field-error" id="key-name-error">El nombre tiene más de 200 caracteres.',
    );
    expect(html).toContain('aria-describedby="key-name-hint key-name-error" aria-invalid="true"');
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

/** A partner call with `apiKey` from the client address `from` (the socket's, as on Node). */
function callFrom(
  apiKey: string,
  path: string,
  init: { method?: string; body?: unknown; from?: string } = {},
) {
  return h.app.request(
    path,
    {
      method: init.method ?? "GET",
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    },
    { incoming: { socket: { remoteAddress: init.from ?? "127.0.0.1" } } },
  );
}

/** A time `ms` from the harness's now as a datetime-local input sends it, in UTC (to the minute). */
function utcInput(ms: number): { typed: string; iso: string } {
  const at = new Date(Math.floor((h.clock.now().getTime() + ms) / 60_000) * 60_000);
  return { typed: at.toISOString().slice(0, 16), iso: at.toISOString() };
}

const keysPath = (tenant: Tenant) => `/dashboard/keys?integration=${tenant.integrationId}`;

describe("restricted keys from the dashboard (issue 37)", () => {
  it("offers a checkbox per scope with its description, an allow list and an expiry in UTC, and says what empty means", async () => {
    const client = await signedInMember(h, acme, "restricted-form");
    const html = await client.page(keysPath(acme));
    for (const scope of API_SCOPE_NAMES) {
      expect(html).toContain(`<input type="checkbox" name="scopes" value="${scope}"/>`);
    }
    expect(html).toContain("<code>settlements:read</code> Leer las cadenas de origen");
    expect(html).toContain("Si no marcas ninguno, la llave podrá hacerlo todo");
    expect(html).toMatch(/<textarea id="key-allowed-ips" name="allowedIps"/);
    expect(html).toContain("Vacío: se acepta desde cualquier dirección.");
    expect(html).toContain('<input id="key-expires-at" name="expiresAt" type="datetime-local"');
    expect(html).toContain("Vence (opcional, en UTC)");
    const english = await client.page(`${keysPath(acme)}&lang=en`);
    expect(english).toContain(`<code>swaps:read</code> ${API_SCOPES["swaps:read"]}`);
    expect(english).toContain("Check none for a key that may do everything");
    expect(english).toContain("Expires (optional, in UTC)");
  });

  it("issues a key with scopes, an allow list and an expiry that the API enforces, and lists each limit", async () => {
    const client = await signedInMember(h, acme, "restricted-issuer");
    await client.page(keysPath(acme));
    const expiry = utcInput(2 * 3_600_000);
    const response = await client.post(keysPath(acme), {
      name: "reporting",
      scopes: "settlements:read",
      allowedIps: "127.0.0.1\r\n\r\n  10.1.2.3/8  \r\n2001:db8::/32",
      expiresAt: expiry.typed,
    });
    expect(response.status).toBe(200);
    const html = await response.text();
    const apiKey = shownSecret(html);
    const key = (await keysOf(acme.integrationId)).find(
      (k) => apiKey.startsWith(k.start) && k.name === "reporting",
    );
    expect(key).toMatchObject({
      scopes: ["settlements:read"],
      allowedIps: ["127.0.0.1/32", "10.0.0.0/8", "2001:db8::/32"],
      expiresAt: expiry.iso,
    });
    if (!key) throw new Error("the key is not listed");

    // Within its scope and from its list: answered. Outside its scope: 403 naming the scope it needs.
    expect((await callFrom(apiKey, "/api/integrations/settlements/orders")).status).toBe(200);
    const quote = await callFrom(apiKey, "/api/integrations/settlements/quotes", {
      method: "POST",
      body: { sendAmountUsdc: "10" },
    });
    expect(await errorOf(quote, 403)).toMatchObject({
      code: "INSUFFICIENT_SCOPE",
      requiredScope: "settlements:write",
    });
    const elsewhere = await callFrom(apiKey, "/api/integrations/settlements/orders", { from: "192.0.2.1" });
    expect((await errorOf(elsewhere, 403)).code).toBe("IP_NOT_ALLOWED");

    const row = rowOf(await client.page(keysPath(acme)), key.id);
    expect(row).toContain("<li><code>settlements:read</code></li>");
    expect(row).not.toContain("<code>settlements:write</code>");
    for (const range of ["127.0.0.1/32", "10.0.0.0/8", "2001:db8::/32"]) {
      expect(row).toContain(`<li><code>${range}</code></li>`);
    }
    expect(row).toContain(`data-utc="${expiry.iso}"`);
    expect(row).toContain('class="pill good">Activa');
    // The key's own expiry form shows it in UTC, as it reads a value back.
    expect(row).toContain(`value="${expiry.typed}"`);

    // Past its expiry: 401, listed as expired, nothing left to set on it.
    h.clock.advance(2 * 3_600_000);
    expect((await callFrom(apiKey, "/api/integrations/settlements/orders")).status).toBe(401);
    const expired = rowOf(await client.page(keysPath(acme)), key.id);
    expect(expired).toContain('class="pill bad">Vencida');
    expect(expired).not.toContain("/expiry?");
  });

  it("lists a key without limits as every scope, any address and no expiry", async () => {
    const client = await signedInMember(h, acme, "unrestricted");
    const { key } = await issueInPage(client, acme, "everything");
    expect(key).toMatchObject({ scopes: null, allowedIps: null, expiresAt: null });
    const row = rowOf(await client.page(keysPath(acme)), key.id);
    expect(row).toContain("Todos");
    expect(row).toContain("Cualquiera");
    expect(row).toContain("Sin vencimiento");
  });

  it("refuses a bad CIDR beside the allow list (400), keeps what was typed and issues nothing", async () => {
    const client = await signedInMember(h, acme, "bad-cidr");
    await client.page(keysPath(acme));
    const before = await keysOf(acme.integrationId);
    const expiry = utcInput(3_600_000);
    const typed = "203.0.113.0/24\n10.0.0.0/33";
    const response = await client.post(keysPath(acme), {
      name: "office",
      scopes: ["settlements:read", "statements:read"],
      allowedIps: typed,
      expiresAt: expiry.typed,
    });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain('data-code="INVALID_REQUEST"');
    expect(html).toContain(
      '<p class="field-error" id="key-allowed-ips-error">«10.0.0.0/33» no es una dirección IPv4 o IPv6 ni un rango CIDR.</p>',
    );
    expect(html).toContain(
      'aria-describedby="key-allowed-ips-hint key-allowed-ips-error" aria-invalid="true"',
    );
    expect(html).not.toContain("203.0.113.0/24» no es");
    // What was typed comes back: the name, the checked scopes, the list and the expiry.
    expect(html).toContain('value="office"');
    expect(html).toContain('value="settlements:read" checked');
    expect(html).toContain('value="statements:read" checked');
    expect(html).toContain('<input type="checkbox" name="scopes" value="swaps:read"/>');
    expect(html).toContain(`>${typed}</textarea>`);
    expect(html).toContain(`value="${expiry.typed}"`);
    expect(html).not.toContain('class="secret"');
    expect(await keysOf(acme.integrationId)).toEqual(before);
  });

  it("answers anything else a browser can send with 400 and the field's message, never a 500, and issues nothing", async () => {
    const client = await signedInMember(h, acme, "bad-fields");
    await client.page(keysPath(acme));
    const before = await keysOf(acme.integrationId);
    const cases: Array<[Record<string, string | string[]>, string, string]> = [
      [{ scopes: "settlements:admin" }, "key-scopes-error", "Elige solo alcances de la lista."],
      [{ scopes: ["settlements:read", ""] }, "key-scopes-error", "Elige solo alcances de la lista."],
      [{ allowedIps: "example.com" }, "key-allowed-ips-error", "«example.com» no es una dirección"],
      [{ allowedIps: `${"1".repeat(70)}` }, "key-allowed-ips-error", "no es una dirección IPv4"],
      [
        { allowedIps: Array.from({ length: 51 }, (_, i) => `10.0.0.${i}`).join("\n") },
        "key-allowed-ips-error",
        "Como mucho 50 direcciones o rangos.",
      ],
      [{ expiresAt: utcInput(-60_000).typed }, "key-expires-at-error", "Escribe una fecha y hora futura"],
      [{ expiresAt: "tomorrow" }, "key-expires-at-error", "Escribe una fecha y hora futura"],
      [{ expiresAt: "2030-02-30T10:00" }, "key-expires-at-error", "Escribe una fecha y hora futura"],
      [{ expiresAt: "99999-01-01T00:00" }, "key-expires-at-error", "Escribe una fecha y hora futura"],
      [{ expiresAt: "9999-12-31T23:59:59-23:59" }, "key-expires-at-error", "Escribe una fecha y hora futura"],
    ];
    for (const [form, id, message] of cases) {
      const response = await client.post(keysPath(acme), form);
      expect(response.status, JSON.stringify(form)).toBe(400);
      const html = await response.text();
      expect(html, JSON.stringify(form)).toMatch(
        new RegExp(`<p class="field-error" id="${id}">[^<]*${message}`),
      );
    }
    expect(await keysOf(acme.integrationId)).toEqual(before);
  });
});

describe("a key's expiry from the dashboard (issue 37)", () => {
  const expiryPath = (tenant: Tenant, keyId: string) =>
    `/dashboard/keys/${keyId}/expiry?integration=${tenant.integrationId}`;

  it("gives an existing key an expiry (a rotation with overlap): it works until then, 401 after", async () => {
    const client = await signedInMember(h, acme, "rotator");
    const old = await issueInPage(client, acme, "old key");
    const fresh = await issueInPage(client, acme, "new key");
    // Used once, so this isolate holds the old key resolved: setting the expiry must evict it.
    expect(await apiStatus(old.apiKey)).toBe(200);
    const page = rowOf(await client.page(keysPath(acme)), old.key.id);
    expect(page).toContain(`action="${expiryPath(acme, old.key.id).replace("&", "&amp;")}"`);
    expect(page).toContain('aria-label="Vencimiento de la llave');

    const expiry = utcInput(2 * 60_000);
    const response = await client.post(expiryPath(acme, old.key.id), { expiresAt: expiry.typed });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(`${keysPath(acme)}&done=expiry`);
    const after = await client.page(response.headers.get("location") ?? "");
    expect(after).toContain('<p class="note" role="status">Vencimiento fijado');
    expect(rowOf(after, old.key.id)).toContain(`data-utc="${expiry.iso}"`);
    expect((await keysOf(acme.integrationId)).find((k) => k.id === old.key.id)?.expiresAt).toBe(expiry.iso);

    expect(await apiStatus(old.apiKey)).toBe(200);
    h.clock.set(new Date(expiry.iso));
    expect(await apiStatus(old.apiKey)).toBe(401);
    expect(await apiStatus(fresh.apiKey)).toBe(200);
    expect(rowOf(await client.page(keysPath(acme)), old.key.id)).toContain("Vencida");
  });

  it("clears an expiry with an empty value, refuses a past one beside the key's field, and a revoked key with 409", async () => {
    const client = await signedInMember(h, acme, "expiry-edits");
    const { key } = await issueInPage(client, acme, "moving");
    const later = utcInput(3_600_000);
    expect((await client.post(expiryPath(acme, key.id), { expiresAt: later.typed })).status).toBe(303);

    const past = utcInput(-60_000);
    await client.page(keysPath(acme));
    const refused = await client.post(expiryPath(acme, key.id), { expiresAt: past.typed });
    expect(refused.status).toBe(400);
    const row = rowOf(await refused.text(), key.id);
    expect(row).toContain(
      `<p class="field-error" id="expiry-${key.id}-error">Escribe una fecha y hora futura`,
    );
    expect(row).toContain(`value="${past.typed}"`);
    expect(row).toContain('aria-invalid="true"');
    expect((await keysOf(acme.integrationId)).find((k) => k.id === key.id)?.expiresAt).toBe(later.iso);

    const cleared = await client.post(expiryPath(acme, key.id), { expiresAt: "" });
    expect(cleared.status).toBe(303);
    expect(cleared.headers.get("location")).toBe(`${keysPath(acme)}&done=no-expiry`);
    expect((await keysOf(acme.integrationId)).find((k) => k.id === key.id)?.expiresAt).toBeNull();

    await client.post(`/dashboard/keys/${key.id}/revoke?integration=${acme.integrationId}`, {});
    await client.page(keysPath(acme));
    const revoked = await client.post(expiryPath(acme, key.id), { expiresAt: later.typed });
    expect(revoked.status).toBe(409);
    expect(await revoked.text()).toContain('data-code="API_KEY_INACTIVE"');
    expect((await keysOf(acme.integrationId)).find((k) => k.id === key.id)?.expiresAt).toBeNull();
  });

  it("answers another organization's key, or another integration's, with the 404 page and changes nothing", async () => {
    const owner = await signedInMember(h, acme, "expiry-owner");
    const { apiKey, key } = await issueInPage(owner, acme, "not yours");
    const stranger = await signedInMember(h, other, "expiry-stranger");
    await stranger.page("/dashboard/keys");
    const later = utcInput(60_000).typed;
    for (const path of [expiryPath(other, key.id), expiryPath(acme, key.id)]) {
      const response = await stranger.post(path, { expiresAt: later });
      expect(response.status, path).toBe(404);
      expect(await response.text()).toContain("No existe en esta integración.");
    }
    const missing = await owner.post(expiryPath(acme, "key_00000000000000000000000000"), {
      expiresAt: later,
    });
    expect(missing.status).toBe(404);
    expect((await keysOf(acme.integrationId)).find((k) => k.id === key.id)?.expiresAt).toBeNull();
    expect(await apiStatus(apiKey)).toBe(200);
  });
});

describe("the overview's active keys", () => {
  it("counts neither a revoked nor an expired key as active", async () => {
    const tenant = await createTenant(h, "Counting keys");
    const client = await signedInMember(h, tenant, "counter");
    const activeKeys = async () =>
      (await client.page("/dashboard")).match(/Llaves activas<\/a><strong>(\d+)<\/strong>/)?.[1];
    expect(await activeKeys()).toBe("1");
    const expiring = utcInput(60_000);
    await client.page(keysPath(tenant));
    expect((await client.post(keysPath(tenant), { expiresAt: expiring.typed })).status).toBe(200);
    expect(await activeKeys()).toBe("2");
    h.clock.set(new Date(expiring.iso));
    expect(await activeKeys()).toBe("1");
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
