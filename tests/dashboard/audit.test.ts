import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { route as listAuditLog } from "../../functions/audit/list-audit-log";
import { AUDIT_ACTION_TABLE } from "../../lib/audit/actions";
import { createHarness, type Harness, TEST_ADMIN_TOKEN } from "../harness/app";
import { bodyOf } from "../harness/bodies";
import { addMember, type DashboardClient, freshEmail, pagerLink, signedInClient } from "../harness/dashboard";
import { partnerRequest } from "../harness/settlement";
import { createTenant, type Tenant } from "../harness/tenants";

/**
 * The audit log's dashboard page (issue 37): the member's organization's changes, newest first, with
 * labels in both languages, who, from where and each changed field's before → after; filtered by
 * action and UTC dates, paged by the list's cursor; another organization's entries never shown.
 */

let h: Harness;
let acme: Tenant;
let other: Tenant;
let acmeMemberId: string;
let acmeClient: DashboardClient;
let otherClient: DashboardClient;
let firstSecret: string;

const HOOK = "https://hooks.example.com/acme-audit";

/** Each row of the page's table: its entry id, its action and its HTML. */
function rows(html: string): Array<{ id: string; action: string; html: string }> {
  return [...html.matchAll(/<tr data-audit-id="(aud_\w+)" data-action="([\w.]+)">([\s\S]*?)<\/tr>/g)].map(
    (match) => ({ id: match[1] ?? "", action: match[2] ?? "", html: match[3] ?? "" }),
  );
}

async function apiLog(tenant: Tenant) {
  return bodyOf(await partnerRequest(h, tenant, "/api/integrations/audit-log?limit=200"), listAuditLog, 200);
}

beforeAll(async () => {
  // Ten minutes before midnight UTC: the operator's change lands on 1 March, the webhook's on 2 March.
  h = await createHarness({
    identity: true,
    env: { RATE_LIMIT_PER_IP_PER_MINUTE: "100000" },
    clockStart: new Date("2026-03-01T23:50:00Z"),
  });
  acme = await createTenant(h, "Acme Wallet");
  other = await createTenant(h, "Other Fintech");
  const email = freshEmail("audit");
  acmeMemberId = await addMember(h, acme.organizationId, email);
  acmeClient = await signedInClient(h, email);
  otherClient = await signedInClient(h, await memberEmail(other));

  h.clock.advance(60_000);
  const patched = await h.app.request(
    `/admin/organizations/${acme.organizationId}`,
    {
      method: "PATCH",
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "Acme Wallet Pro", fastTransfer: true }),
    },
    { incoming: { socket: { remoteAddress: "198.51.100.20" } } },
  );
  expect(patched.status).toBe(200);

  h.clock.advance(10 * 60_000);
  const put = await partnerRequest(h, acme, "/api/integrations/webhooks/endpoint", {
    method: "PUT",
    body: { url: HOOK },
  });
  expect(put.status).toBe(201);
  firstSecret = ((await put.json()) as { secret: string }).secret;

  h.clock.advance(60_000);
  await acmeClient.page(`/dashboard/webhooks?integration=${acme.integrationId}`);
  const replaced = await acmeClient.post(`/dashboard/webhooks/endpoint?integration=${acme.integrationId}`, {
    url: `${HOOK}/v2`,
  });
  // Replacing keeps the secret: the answer is the page again, with a note.
  expect(replaced.status).toBe(303);
  // Another organization's change, which acme's page must never show.
  const theirs = await partnerRequest(h, other, "/api/integrations/webhooks/endpoint", {
    method: "PUT",
    body: { url: "https://hooks.example.com/other-fintech" },
  });
  expect(theirs.status).toBe(201);
}, 60_000);
afterAll(async () => h?.close());

async function memberEmail(tenant: Tenant): Promise<string> {
  const email = freshEmail("stranger");
  await addMember(h, tenant.organizationId, email);
  return email;
}

describe("the audit log page", () => {
  it("lists the organization's changes newest first, in Spanish by default: label, UTC time, who, address, target, before → after", async () => {
    const html = await acmeClient.page("/dashboard/audit");
    expect(html).toContain("<h1>Registro de auditoría</h1>");
    expect(html).toMatch(
      /<a href="\/dashboard\/audit\?integration=int_\w+" aria-current="page">Auditoría<\/a>/,
    );

    const listed = rows(html);
    const api = await apiLog(acme);
    expect(listed.map((row) => row.id)).toEqual(api.data.map((entry) => entry.id));
    expect(listed.map((row) => row.action)).toEqual([
      "webhook_endpoint.set",
      "webhook_endpoint.set",
      "organization.updated",
      "member.added",
      // The organization's first key, issued with it.
      "api_key.issued",
    ]);
    const [byMember, byKey, byOperator, added] = listed.map((row) => row.html);

    expect(byMember).toContain("Endpoint de webhooks configurado");
    expect(byMember).toContain("2026-03-02 00:02:00 UTC");
    expect(byMember).toContain(`Miembro<br/><span class="mono">${acmeMemberId}</span>`);
    expect(byMember).toMatch(
      /<code>url<\/code>: <span class="mono">https:\/\/hooks\.example\.com\/acme-audit<\/span> → <span class="mono">https:\/\/hooks\.example\.com\/acme-audit\/v2<\/span>/,
    );
    // Only the fields that changed: the rest of the entry's fields are equal before and after.
    expect(byMember).not.toContain("<code>status</code>");

    expect(byKey).toContain("2026-03-02 00:01:00 UTC");
    expect(byKey).toMatch(/Llave de API<br\/><span class="mono">key_\w+<\/span>/);
    expect(byKey).toMatch(
      /<code>url<\/code>: <span>—<\/span> → <span class="mono">https:\/\/hooks\.example\.com\/acme-audit<\/span>/,
    );
    expect(byKey).toContain("Endpoint de webhooks<br/>");

    expect(byOperator).toContain("Ajustes de la organización cambiados");
    expect(byOperator).toContain("2026-03-01 23:51:00 UTC");
    expect(byOperator).toContain('Operador<br/><span class="mono">operator</span>');
    expect(byOperator).toContain('<td class="mono">198.51.100.20</td>');
    expect(byOperator).toContain(`Organización<br/><span class="mono">${acme.organizationId}</span>`);
    expect(byOperator).toMatch(
      /<code>name<\/code>: <span class="mono">Acme Wallet<\/span> → <span class="mono">Acme Wallet Pro<\/span>/,
    );
    expect(byOperator).toMatch(
      /<code>fastTransfer<\/code>: <span class="mono">false<\/span> → <span class="mono">true<\/span>/,
    );

    expect(added).toContain("Miembro agregado");
    expect(added).toMatch(
      /<code>email<\/code>: <span>—<\/span> → <span class="mono">audit\.\d+@example\.com<\/span>/,
    );

    // Never a secret, and never another organization's entry.
    expect(firstSecret.length).toBeGreaterThan(20);
    expect(html).not.toContain(firstSecret);
    expect(html).not.toContain(firstSecret.slice(-24));
    expect(html).not.toContain("other-fintech");
    expect(html).not.toContain(other.organizationId);
  });

  it("labels the entries in English with an English Accept-Language or the language switch", async () => {
    const response = await acmeClient.get("/dashboard/audit", { "accept-language": "en-US,en;q=0.9" });
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("<h1>Audit log</h1>");
    expect(html).toContain(">Audit log</a>");
    const listed = rows(html);
    for (const row of listed) {
      expect(row.html).toContain(AUDIT_ACTION_TABLE[row.action as keyof typeof AUDIT_ACTION_TABLE].label);
    }
    expect(listed[2]?.html).toContain('Operator<br/><span class="mono">operator</span>');
    expect(listed[1]?.html).toMatch(/API key<br\/><span class="mono">key_\w+<\/span>/);
    expect(html).not.toContain("Ajustes de la organización cambiados");

    const switched = await acmeClient.page("/dashboard/audit?lang=en");
    expect(switched).toContain("Organization settings changed");
    // Remembered in its cookie until switched back.
    expect(await acmeClient.page("/dashboard/audit")).toContain("Webhook endpoint set");
    expect(await acmeClient.page("/dashboard/audit?lang=es")).toContain("Endpoint de webhooks configurado");
  });

  it("filters by action with the select", async () => {
    const html = await acmeClient.page("/dashboard/audit?action=organization.updated");
    expect(rows(html).map((row) => row.action)).toEqual(["organization.updated"]);
    expect(html).toContain('<option value="organization.updated" selected="">');

    const none = await acmeClient.page("/dashboard/audit?action=member.revoked");
    expect(rows(none)).toEqual([]);
    expect(none).toContain("No hay cambios registrados con estos filtros.");

    const bad = await acmeClient.get("/dashboard/audit?action=everything");
    expect(bad.status).toBe(400);
    const refused = await bad.text();
    expect(refused).toContain("«Acción» no es una de las acciones de la lista");
    expect(refused).toMatch(/<select id="audit-action" name="action" aria-invalid="true"/);
    expect(rows(refused)).toEqual([]);
  });

  it("pages newest first by the list's cursor, keeping the filters", async () => {
    const all = rows(await acmeClient.page("/dashboard/audit")).map((row) => row.id);
    const seen: string[] = [];
    let path: string | undefined = "/dashboard/audit?limit=1";
    let pages = 0;
    while (path) {
      const html = await acmeClient.page(path);
      const listed = rows(html);
      expect(listed.length).toBe(1);
      seen.push(...listed.map((row) => row.id));
      if (pages > 0) expect(pagerLink(html, "Los más recientes")).toMatch(/^\/dashboard\/audit\?.*limit=1/);
      path = pagerLink(html, "Más antiguos");
      if (path) expect(path).toMatch(/[?&]cursor=/);
      pages += 1;
    }
    expect(pages).toBe(all.length);
    expect(seen).toEqual(all);

    const first = await acmeClient.page("/dashboard/audit?action=webhook_endpoint.set&limit=1");
    const older = pagerLink(first, "Más antiguos");
    expect(older).toContain("action=webhook_endpoint.set");
    const second = await acmeClient.page(older ?? "");
    expect(rows(second).map((row) => row.action)).toEqual(["webhook_endpoint.set"]);
    expect(pagerLink(second, "Más antiguos")).toBeUndefined();

    const badCursor = await acmeClient.get("/dashboard/audit?cursor=nope");
    expect(badCursor.status).toBe(400);
    expect(await badCursor.text()).toContain("el cursor no es de esta lista");
    const badLimit = await acmeClient.get("/dashboard/audit?limit=500");
    expect(badLimit.status).toBe(400);
  });

  it("filters by UTC dates, both included, and names a bad date as a field error", async () => {
    const march1 = rows(await acmeClient.page("/dashboard/audit?from=2026-03-01&to=2026-03-01"));
    expect(march1.map((row) => row.action)).toEqual([
      "organization.updated",
      "member.added",
      "api_key.issued",
    ]);
    const march2 = rows(await acmeClient.page("/dashboard/audit?from=2026-03-02"));
    expect(march2.map((row) => row.action)).toEqual(["webhook_endpoint.set", "webhook_endpoint.set"]);
    expect(rows(await acmeClient.page("/dashboard/audit?to=2026-02-28"))).toEqual([]);
    expect(rows(await acmeClient.page("/dashboard/audit?from=2026-01-01&to=9999-12-31"))).toHaveLength(5);

    for (const bad of ["2026-02-30", "22/11/2026", "2026-03-01(x)", "0000-01-01"]) {
      const response = await acmeClient.get(`/dashboard/audit?from=${encodeURIComponent(bad)}`);
      expect(response.status, bad).toBe(400);
      const html = await response.text();
      expect(html).toContain('data-code="INVALID_REQUEST"');
      expect(html).toContain(
        '<p class="field-error" id="audit-from-error">«Desde» debe ser una fecha AAAA-MM-DD que exista</p>',
      );
      expect(html).toMatch(
        /<input id="audit-from" name="from" type="date" value="[^"]*" aria-invalid="true"/,
      );
      expect(rows(html)).toEqual([]);
    }

    const reversed = await acmeClient.get("/dashboard/audit?from=2026-03-02&to=2026-03-01&lang=en");
    expect(reversed.status).toBe(400);
    expect(await reversed.text()).toContain(
      '<p class="field-error" id="audit-to-error">“To” cannot be before “From”</p>',
    );
    await acmeClient.page("/dashboard/audit?lang=es");
  });

  it("shows another organization's member none of these entries", async () => {
    const html = await otherClient.page("/dashboard/audit");
    const listed = rows(html);
    const theirs = (await apiLog(other)).data.map((entry) => entry.id);
    expect(listed.map((row) => row.id)).toEqual(theirs);
    const acmeIds = new Set((await apiLog(acme)).data.map((entry) => entry.id));
    expect(listed.some((row) => acmeIds.has(row.id))).toBe(false);
    for (const text of [acme.organizationId, acmeMemberId, HOOK, "Acme Wallet Pro", "198.51.100.20"]) {
      expect(html).not.toContain(text);
    }
    const filtered = await otherClient.page("/dashboard/audit?action=organization.updated");
    expect(rows(filtered)).toEqual([]);

    // Asking for acme's integration is the 404 page, as on every page.
    const asked = await otherClient.get(`/dashboard/audit?integration=${acme.integrationId}`);
    expect(asked.status).toBe(404);
    expect(await asked.text()).not.toContain(acme.organizationId);
  });
});
