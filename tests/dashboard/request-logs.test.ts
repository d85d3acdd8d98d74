import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requestLogs } from "../../schema";
import { createHarness, type Harness } from "../harness/app";
import { addMember, type DashboardClient, freshEmail, pagerLink, signedInClient } from "../harness/dashboard";
import { partnerRequest } from "../harness/settlement";
import { createTenant, type Tenant } from "../harness/tenants";

/**
 * The request logs' dashboard page (issue 37): the requests the organization's API keys made in the
 * last 7 days, newest first, with method, path, status, error code, request id, key, latency and
 * idempotency key; filtered by request id, status, path and UTC dates, paged by the list's cursor;
 * each request's detail with its redacted bodies; another organization's requests never shown.
 */

let h: Harness;
let acme: Tenant;
let other: Tenant;
let acmeEmail: string;
let acmeClient: DashboardClient;
let otherClient: DashboardClient;
/** Acme's requests, oldest first: the webhook PUT (201), a missing order (404), the orders (200), a refused PUT (400). */
let put: string;
let missing: string;
let orders: string;
let refused: string;
let acmeSecret: string;
/** The other organization's requests. */
let theirs: string[];

const HOOK = "https://hooks.example.com/acme-logs?owner=ana@example.com";
const SCRIPT = "<script>alert(1)</script>";

/** Each row of the page's table: its request id, its status and its HTML. */
function rows(html: string): Array<{ id: string; status: string; html: string }> {
  return [...html.matchAll(/<tr data-request-id="([\w.:-]+)" data-status="(\d+)">([\s\S]*?)<\/tr>/g)].map(
    (match) => ({ id: match[1] ?? "", status: match[2] ?? "", html: match[3] ?? "" }),
  );
}

/** The text of the body shown under the heading `id`, its HTML escapes read back. */
function bodyShown(html: string, id: string): string | undefined {
  const section = html.slice(html.indexOf(`aria-labelledby="${id}"`));
  const escaped = section.match(/<pre class="body">([\s\S]*?)<\/pre>/)?.[1];
  return escaped
    ?.replaceAll("&quot;", '"')
    .replaceAll("&#39;", "'")
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&amp;", "&");
}

async function requestId(response: Response, status: number): Promise<string> {
  expect(response.status).toBe(status);
  const id = response.headers.get("x-request-id");
  if (!id) throw new Error("no X-Request-Id");
  return id;
}

async function logged(id: string) {
  const [row] = await h.database.db.select().from(requestLogs).where(eq(requestLogs.id, id));
  if (!row) throw new Error(`${id} was not logged`);
  return row;
}

beforeAll(async () => {
  // Ten minutes before midnight UTC: two requests land on 1 March, the other two on 2 March.
  h = await createHarness({
    identity: true,
    env: { RATE_LIMIT_PER_IP_PER_MINUTE: "100000" },
    clockStart: new Date("2026-03-01T23:50:00Z"),
  });
  acme = await createTenant(h, "Acme Wallet");
  other = await createTenant(h, "Other Fintech");
  acmeEmail = await memberEmail(acme, "logs");
  acmeClient = await signedInClient(h, acmeEmail);
  otherClient = await signedInClient(h, await memberEmail(other, "stranger"));

  h.clock.advance(60_000);
  const created = await partnerRequest(h, acme, "/api/integrations/webhooks/endpoint", {
    method: "PUT",
    body: { url: HOOK },
    headers: { "idempotency-key": "put-acme-1" },
  });
  put = await requestId(created, 201);
  acmeSecret = ((await created.json()) as { secret: string }).secret;
  h.clock.advance(60_000);
  missing = await requestId(
    await partnerRequest(h, acme, "/api/integrations/settlements/orders/ord_missing"),
    404,
  );
  h.clock.advance(10 * 60_000);
  orders = await requestId(await partnerRequest(h, acme, "/api/integrations/settlements/orders"), 200);
  h.clock.advance(60_000);
  // A field the schema does not take: refused, and logged with the body as sent.
  refused = await requestId(
    await partnerRequest(h, acme, "/api/integrations/webhooks/endpoint", {
      method: "PUT",
      body: { url: "https://hooks.example.com/x", note: SCRIPT },
    }),
    400,
  );

  // The other organization's requests, at the same times, which acme's page must never show.
  theirs = [
    await requestId(
      await partnerRequest(h, other, "/api/integrations/webhooks/endpoint", {
        method: "PUT",
        body: { url: "https://hooks.example.com/other-fintech" },
      }),
      201,
    ),
    await requestId(await partnerRequest(h, other, "/api/integrations/settlements/orders/ord_theirs"), 404),
  ];
  // The logs are written after each response.
  await h.settled();
}, 60_000);
afterAll(async () => h?.close());

async function memberEmail(tenant: Tenant, name: string): Promise<string> {
  const email = freshEmail(name);
  await addMember(h, tenant.organizationId, email);
  return email;
}

describe("the request logs page", () => {
  it("lists the organization's requests newest first, in Spanish by default: time, method, path, status, error code, id, key, latency, idempotency key", async () => {
    const html = await acmeClient.page("/dashboard/request-logs");
    expect(html).toContain("<h1>Solicitudes a la API</h1>");
    const nav = html.slice(html.indexOf('<nav class="sections"'), html.indexOf("</nav>"));
    expect(nav).toMatch(
      /Auditoría<\/a><\/li><li><a href="\/dashboard\/request-logs\?integration=int_\w+" aria-current="page">Solicitudes a la API<\/a>/,
    );

    const listed = rows(html);
    expect(listed.map((row) => [row.id, row.status])).toEqual([
      [refused, "400"],
      [orders, "200"],
      [missing, "404"],
      [put, "201"],
    ]);
    const [byRefused, byOrders, byMissing, byPut] = listed.map((row) => row.html);

    const putLog = await logged(put);
    expect(byPut).toContain('<span title="2026-03-01T23:51:00.000Z">2026-03-01 23:51:00 UTC</span>');
    expect(byPut).toContain('<td class="mono">PUT</td>');
    expect(byPut).toContain('<td class="mono">/api/integrations/webhooks/endpoint</td>');
    expect(byPut).toContain('<span class="pill good">201</span>');
    expect(byPut).toContain(
      `<a href="/dashboard/request-logs/${put}?integration=${acme.integrationId}">${put}</a>`,
    );
    expect(byPut).toContain(`<td class="mono">${putLog.keyId}</td>`);
    expect(putLog.keyId).toMatch(/^key_/);
    expect(byPut).toContain(`<td class="num">${putLog.latencyMs}</td>`);
    expect(byPut).toContain('<td class="mono">put-acme-1</td>');

    expect(byMissing).toContain("2026-03-01 23:52:00 UTC");
    expect(byMissing).toContain('<td class="mono">GET</td>');
    expect(byMissing).toContain('<td class="mono">/api/integrations/settlements/orders/ord_missing</td>');
    expect(byMissing).toContain('<span class="pill bad">404</span>');
    expect(byMissing).toContain('<td class="mono">ORDER_NOT_FOUND</td>');
    // No idempotency key: a dash.
    expect(byMissing).toMatch(/<td class="mono">—<\/td>$/);

    expect(byOrders).toContain("2026-03-02 00:02:00 UTC");
    expect(byOrders).toContain('<span class="pill good">200</span>');
    expect(byRefused).toContain('<span class="pill bad">400</span>');
    expect(byRefused).toContain('<td class="mono">INVALID_REQUEST</td>');

    // The list holds no body, and never another organization's request.
    expect(html).not.toContain("ana@example.com");
    expect(html).not.toContain(acmeSecret);
    for (const id of theirs) expect(html).not.toContain(id);
    expect(html).not.toContain("ord_theirs");
    expect(html).not.toContain(other.integrationId);
  });

  it("is in English with an English Accept-Language", async () => {
    const response = await acmeClient.get("/dashboard/request-logs", { "accept-language": "en-US,en;q=0.9" });
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("<h1>Request logs</h1>");
    expect(html).toContain('aria-current="page">Request logs</a>');
    expect(html).toContain('<th scope="col">Idempotency key</th>');
    expect(rows(html)).toHaveLength(4);
  });

  it("filters by request id, exact status, path prefix and UTC dates, both days included", async () => {
    const ids = async (query: string) =>
      rows(await acmeClient.page(`/dashboard/request-logs?${query}`)).map((row) => row.id);
    expect(await ids(`requestId=${missing}`)).toEqual([missing]);
    expect(await ids(`requestId=${theirs[0]}`)).toEqual([]);
    expect(await ids("status=404")).toEqual([missing]);
    expect(await ids("status=201")).toEqual([put]);
    expect(await ids("status=500")).toEqual([]);
    expect(await ids(`path=${encodeURIComponent("/api/integrations/settlements")}`)).toEqual([
      orders,
      missing,
    ]);
    expect(await ids(`path=${encodeURIComponent("/api/integrations/webhooks")}`)).toEqual([refused, put]);
    // A prefix, with LIKE's wildcards taken as text.
    expect(await ids(`path=${encodeURIComponent("/api/integrations/settlements/orders/ord")}`)).toEqual([
      missing,
    ]);
    expect(await ids(`path=${encodeURIComponent("/api/integrations/%")}`)).toEqual([]);
    expect(await ids("from=2026-03-02")).toEqual([refused, orders]);
    expect(await ids("to=2026-03-01")).toEqual([missing, put]);
    expect(await ids("from=2026-03-01&to=2026-03-01")).toEqual([missing, put]);
    expect(await ids("from=2026-03-02&status=200")).toEqual([orders]);
    expect(await ids("to=2026-02-28")).toEqual([]);

    const html = await acmeClient.page(
      `/dashboard/request-logs?status=404&path=${encodeURIComponent("/api")}`,
    );
    expect(html).toContain('<input id="request-logs-status" name="status" type="text" value="404"');
    expect(html).toContain('<input id="request-logs-path" name="path" type="text" value="/api"');
    const none = await acmeClient.page("/dashboard/request-logs?status=418");
    expect(rows(none)).toEqual([]);
    expect(none).toContain("No hay solicitudes registradas con estos filtros.");
  });

  it("refuses a bad filter with a 400 naming the field, the form keeping what was typed, never a 500", async () => {
    const cases: Array<[string, string, string]> = [
      // The list filters by an exact status: a class of statuses is not one.
      ["status=4xx", "request-logs-status", "«Estado HTTP» debe ser un código de 100 a 599, como 404"],
      ["status=700", "request-logs-status", "«Estado HTTP» debe ser un código de 100 a 599, como 404"],
      [
        "path=api%2Fintegrations",
        "request-logs-path",
        "«Ruta» debe empezar por / y tener a lo sumo 200 caracteres",
      ],
      [
        `requestId=${"r".repeat(129)}`,
        "request-logs-requestId",
        "«Id de la solicitud» debe tener de 1 a 128 caracteres",
      ],
      ["from=2026-02-30", "request-logs-from", "«Desde» debe ser una fecha AAAA-MM-DD que exista"],
      ["from=0000-01-01", "request-logs-from", "«Desde» debe ser una fecha AAAA-MM-DD que exista"],
      ["to=22%2F11%2F2026", "request-logs-to", "«Hasta» debe ser una fecha AAAA-MM-DD que exista"],
      ["from=2026-03-02&to=2026-03-01", "request-logs-to", "«Hasta» no puede ser anterior a «Desde»"],
    ];
    for (const [query, id, message] of cases) {
      const response = await acmeClient.get(`/dashboard/request-logs?${query}`);
      expect(response.status, query).toBe(400);
      const html = await response.text();
      expect(html, query).toContain('data-code="INVALID_REQUEST"');
      expect(html, query).toContain(`<p class="field-error" id="${id}-error">${message}</p>`);
      expect(html, query).toMatch(
        new RegExp(`<input id="${id}" [^>]*aria-invalid="true" aria-describedby="${id}-error"`),
      );
      expect(rows(html), query).toEqual([]);
    }
    const typed = await (await acmeClient.get("/dashboard/request-logs?status=4xx")).text();
    expect(typed).toContain('name="status" type="text" value="4xx"');

    const english = await acmeClient.get("/dashboard/request-logs?status=4xx", { "accept-language": "en" });
    expect(english.status).toBe(400);
    expect(await english.text()).toContain("“HTTP status” must be a code from 100 to 599, such as 404");

    const badCursor = await acmeClient.get("/dashboard/request-logs?cursor=nope");
    expect(badCursor.status).toBe(400);
    expect(await badCursor.text()).toContain("el cursor no es de esta lista");
    for (const limit of ["0", "101", "many"]) {
      const badLimit = await acmeClient.get(`/dashboard/request-logs?limit=${limit}`);
      expect(badLimit.status, limit).toBe(400);
      expect(await badLimit.text()).toContain("«limit» debe ser un número entero de 1 a 100");
    }
  });

  it("pages newest first by the list's cursor, keeping the filters", async () => {
    const all = rows(await acmeClient.page("/dashboard/request-logs")).map((row) => row.id);
    const seen: string[] = [];
    let path: string | undefined = "/dashboard/request-logs?limit=1";
    let pages = 0;
    while (path) {
      const html = await acmeClient.page(path);
      const listed = rows(html);
      expect(listed.length).toBe(1);
      seen.push(...listed.map((row) => row.id));
      if (pages > 0) {
        expect(pagerLink(html, "Las más recientes")).toMatch(/^\/dashboard\/request-logs\?.*limit=1/);
      }
      path = pagerLink(html, "Más antiguas");
      if (path) expect(path).toMatch(/[?&]cursor=/);
      pages += 1;
    }
    expect(pages).toBe(4);
    expect(seen).toEqual(all);

    const first = await acmeClient.page(
      `/dashboard/request-logs?path=${encodeURIComponent("/api/integrations/settlements")}&limit=1`,
    );
    expect(rows(first).map((row) => row.id)).toEqual([orders]);
    const older = pagerLink(first, "Más antiguas");
    expect(older).toContain(`path=${encodeURIComponent("/api/integrations/settlements")}`);
    const second = await acmeClient.page(older ?? "");
    expect(rows(second).map((row) => row.id)).toEqual([missing]);
    expect(pagerLink(second, "Más antiguas")).toBeUndefined();
  });

  it("shows a request's detail with its bodies redacted and pretty-printed, escaped", async () => {
    const response = await acmeClient.get(`/dashboard/request-logs/${put}`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain(`<h1>Solicitud ${put}</h1>`);
    expect(html).toContain(`<a href="/dashboard/request-logs?integration=${acme.integrationId}">`);
    expect(html).toContain("put-acme-1");
    expect(html).toContain(acme.integrationId);

    const sent = bodyShown(html, "request-log-request");
    expect(sent).toBe(
      JSON.stringify({ url: "https://hooks.example.com/acme-logs?owner=[redacted]" }, null, 2),
    );
    const answered = JSON.parse(bodyShown(html, "request-log-response") ?? "null") as Record<string, unknown>;
    expect(answered.secret).toBe("[redacted]");
    expect(bodyShown(html, "request-log-response")).toContain('\n  "secret": "[redacted]"');
    // Never the email, the webhook secret or the key.
    expect(html).not.toContain("ana@example.com");
    expect(html).not.toContain(acmeSecret);
    expect(html).not.toContain(acme.apiKey);

    // A body's text is escaped, never markup; a GET has no body.
    const script = await acmeClient.page(`/dashboard/request-logs/${refused}`);
    expect(script).not.toContain(SCRIPT);
    expect(script).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(JSON.parse(bodyShown(script, "request-log-request") ?? "null")).toEqual({
      url: "https://hooks.example.com/x",
      note: SCRIPT,
    });
    expect(bodyShown(script, "request-log-response")).toContain('"field": "body.note"');
    const get = await acmeClient.page(`/dashboard/request-logs/${missing}?lang=en`);
    expect(get).toContain(`<h1>Request ${missing}</h1>`);
    expect(get).toContain("No JSON body.");
    expect(bodyShown(get, "request-log-response")).toContain(`"requestId": "${missing}"`);
    await acmeClient.page("/dashboard/request-logs?lang=es");
  });

  it("shows another organization's member none of acme's requests, and each its own detail only (404)", async () => {
    const html = await otherClient.page("/dashboard/request-logs");
    expect(rows(html).map((row) => row.id)).toEqual([...theirs].reverse());
    for (const text of [put, missing, orders, refused, "acme-logs", acme.integrationId, "put-acme-1"]) {
      expect(html).not.toContain(text);
    }
    expect(rows(await otherClient.page(`/dashboard/request-logs?requestId=${put}`))).toEqual([]);

    for (const id of [put, missing]) {
      const stranger = await otherClient.get(`/dashboard/request-logs/${id}`);
      expect(stranger.status).toBe(404);
      const page = await stranger.text();
      expect(page).toContain("No existe en esta integración.");
      expect(page).not.toContain("acme-logs");
      expect(page).not.toContain("ord_missing");
    }
    for (const id of theirs) {
      expect((await acmeClient.get(`/dashboard/request-logs/${id}`)).status).toBe(404);
      expect((await otherClient.get(`/dashboard/request-logs/${id}`)).status).toBe(200);
    }
    // One that never was, and one that could not be an id.
    expect((await acmeClient.get("/dashboard/request-logs/req_nothing_here")).status).toBe(404);
    expect((await acmeClient.get(`/dashboard/request-logs/${encodeURIComponent("<x>'%")}`)).status).toBe(404);

    // Asking for acme's integration is the 404 page, as on every page.
    const asked = await otherClient.get(`/dashboard/request-logs?integration=${acme.integrationId}`);
    expect(asked.status).toBe(404);
    expect(await asked.text()).not.toContain(acme.organizationId);
    const askedDetail = await otherClient.get(
      `/dashboard/request-logs/${theirs[0]}?integration=${acme.integrationId}`,
    );
    expect(askedDetail.status).toBe(404);
  });

  it("keeps 7 days: an older request is neither listed nor shown", async () => {
    // To 9 March 00:00 UTC: the 2 March requests are within the 7 days, the 1 March ones are not.
    h.clock.advance(7 * 24 * 3_600_000 - 3 * 60_000);
    // The session ended 12 hours after sign-in: the member signs in again.
    const client = await signedInClient(h, acmeEmail);
    expect(rows(await client.page("/dashboard/request-logs")).map((row) => row.id)).toEqual([
      refused,
      orders,
    ]);
    expect((await client.get(`/dashboard/request-logs/${put}`)).status).toBe(404);
    expect((await client.get(`/dashboard/request-logs/${orders}`)).status).toBe(200);
  });
});
