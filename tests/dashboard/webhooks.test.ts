import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type ReceiverAnswer, startWebhookReceiver, type WebhookReceiver } from "../../dev/webhook-receiver";
import { type GetWebhookEndpointResponse, route as getEndpoint } from "../../functions/webhooks/get-endpoint";
import { createHarness, type Harness } from "../harness/app";
import { bodyOf, errorOf } from "../harness/bodies";
import { addMember, type DashboardClient, signedInClient } from "../harness/dashboard";
import { partnerRequest } from "../harness/settlement";
import { createTenant, type Tenant } from "../harness/tenants";
import { deliveriesOf, sendTestEvent, setEndpoint, verifyWebhook } from "../harness/webhooks";

let h: Harness;
let counter = 0;
const receivers: WebhookReceiver[] = [];

beforeAll(async () => {
  h = await createHarness({ identity: true, env: { RATE_LIMIT_PER_IP_PER_MINUTE: "100000" } });
}, 60_000);
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});
afterAll(async () => h?.close());

async function receiver(answer?: (index: number) => ReceiverAnswer): Promise<WebhookReceiver> {
  const started = await startWebhookReceiver(answer ? { answer: (request) => answer(request.index) } : {});
  receivers.push(started);
  return started;
}

/** A fresh organization and one of its members, signed in through the emailed code. */
async function tenantWithMember(name: string): Promise<{ tenant: Tenant; client: DashboardClient }> {
  counter += 1;
  const tenant = await createTenant(h, `${name} ${counter}`);
  const email = `${name.toLowerCase()}.${counter}@example.com`;
  await addMember(h, tenant.organizationId, email);
  return { tenant, client: await signedInClient(h, email) };
}

async function endpointOf(tenant: Tenant): Promise<GetWebhookEndpointResponse["endpoint"] | undefined> {
  const response = await partnerRequest(h, tenant, "/api/integrations/webhooks/endpoint");
  if (response.status === 404) {
    expect((await errorOf(response)).code).toBe("WEBHOOK_ENDPOINT_NOT_FOUND");
    return undefined;
  }
  return (await bodyOf(response, getEndpoint, 200)).endpoint;
}

const page = (tenant: Tenant, query = "") =>
  `/dashboard/webhooks?integration=${tenant.integrationId}${query}`;
const action = (tenant: Tenant, path: string) =>
  `/dashboard/webhooks/${path}?integration=${tenant.integrationId}`;

/** The signing secret a page shows in its `.secret` box. */
function shownSecret(html: string): string {
  const box = html.match(/<section class="secret"[\s\S]*?<\/section>/)?.[0] ?? "";
  const secret = box.match(/<code id="signing-secret">(whsec_[A-Za-z0-9+/=]+)<\/code>/)?.[1];
  if (!secret) throw new Error("the answer shows no signing secret in a .secret box");
  expect(box).toContain('data-copy-target="signing-secret"');
  return secret;
}

/** The deliveries table's rows: id, status and the row's HTML. */
function deliveryRows(html: string): Array<{ id: string; status: string; html: string }> {
  return [...html.matchAll(/<tr data-delivery-id="(dlv_[^"]+)" data-status="(\w+)">([\s\S]*?)<\/tr>/g)].map(
    (match) => ({ id: match[1] ?? "", status: match[2] ?? "", html: match[3] ?? "" }),
  );
}

/** Sets the endpoint through the page's form; answers the secret the answer shows once. */
async function setInPage(client: DashboardClient, tenant: Tenant, url: string): Promise<string> {
  await client.page(page(tenant));
  const response = await client.post(action(tenant, "endpoint"), { url });
  expect(response.status).toBe(200);
  return shownSecret(await response.text());
}

describe("the webhooks page", () => {
  it("sets the endpoint from the form: its signing secret is shown once, signs the test event, and the delivery is listed as delivered", async () => {
    const { tenant, client } = await tenantWithMember("Hooks");
    const inbox = await receiver();
    const empty = await client.page(page(tenant));
    expect(empty).toContain("Esta integración aún no tiene endpoint");
    expect(empty).not.toContain("Enviar evento de prueba");

    const response = await client.post(action(tenant, "endpoint"), { url: inbox.url });
    expect(response.status).toBe(200);
    expect(response.headers.get("location")).toBeNull();
    expect(response.headers.get("cache-control")).toBe("no-store");
    const html = await response.text();
    const secret = shownSecret(html);
    expect(html).toContain("no se volverá a mostrar");
    expect(html.split(secret)).toHaveLength(2);
    expect(JSON.stringify(h.logLines)).not.toContain(secret);
    expect(await endpointOf(tenant)).toMatchObject({ url: inbox.url, eventTypes: null });

    // A reload shows the endpoint with its secret masked, never the secret.
    const reloaded = await client.page(page(tenant));
    expect(reloaded).not.toContain(secret);
    expect(reloaded).toContain(`whsec_••••••••${secret.slice(-4)}`);
    expect(reloaded).toContain(inbox.url);
    expect(reloaded).toContain("Todos, incluidos los que se agreguen después");

    const test = await client.post(action(tenant, "endpoint/test"), {});
    expect(test.status).toBe(303);
    expect(test.headers.get("location")).toBe(`${page(tenant)}&done=test`);
    const queued = await client.page(test.headers.get("location") ?? "");
    expect(queued).toContain("Evento de prueba en cola.");
    expect(deliveryRows(queued).map((row) => row.status)).toEqual(["pending"]);

    await h.jobs.drain();
    expect(inbox.received).toHaveLength(1);
    const [request] = inbox.received;
    if (!request) throw new Error("nothing received");
    const event = verifyWebhook(request, secret, h.clock.now());
    expect(event.type).toBe("webhook.test");

    const listed = deliveryRows(await client.page(page(tenant)));
    expect(listed).toHaveLength(1);
    const [row] = listed;
    expect(row?.status).toBe("delivered");
    expect(row?.html).toContain('<span class="pill good">delivered</span>');
    expect(row?.html).toContain("<code>webhook.test</code>");
    expect(row?.html).toContain(event.id);
    expect(row?.html).toMatch(/<td class="num">1<\/td><td class="num">200<\/td>/);
  });

  it("replays an event from its row: a new delivery with the same webhook-id, delivered after the queue runs", async () => {
    const { tenant, client } = await tenantWithMember("Replay");
    const inbox = await receiver();
    await setInPage(client, tenant, inbox.url);
    const eventId = await sendTestEvent(h, tenant);
    await h.jobs.drain();

    const before = await client.page(page(tenant));
    expect(before).toContain(
      `action="/dashboard/webhooks/events/${eventId}/replay?integration=${tenant.integrationId}"`,
    );
    const replayed = await client.post(action(tenant, `events/${eventId}/replay`), {});
    expect(replayed.status).toBe(303);
    expect(replayed.headers.get("location")).toBe(`${page(tenant)}&done=replayed`);
    const pending = deliveryRows(await client.page(page(tenant)));
    expect(pending.map((row) => row.status)).toEqual(["delivered", "pending"]);

    await h.jobs.drain();
    expect(inbox.received.map((request) => request.headers["webhook-id"])).toEqual([eventId, eventId]);
    const rows = deliveryRows(await client.page(page(tenant)));
    expect(rows.map((row) => row.status)).toEqual(["delivered", "delivered"]);
    expect(rows[1]?.html).toContain("reenvío");
    expect((await deliveriesOf(h, tenant)).map((d) => [d.eventId, d.trigger, d.status])).toEqual([
      [eventId, "test", "delivered"],
      [eventId, "replay", "delivered"],
    ]);
  });

  it("replaces the URL and event types with PUT semantics: 303 with a note, the secret kept", async () => {
    const { tenant, client } = await tenantWithMember("Replace");
    const secret = await setInPage(client, tenant, "https://hooks.example.com/first");
    const types = ["settlement.order.delivered", "payout.completed"];
    const body = new URLSearchParams({ url: "https://hooks.example.com/second" });
    for (const type of types) body.append("eventTypes", type);
    // DashboardClient.post takes a record, so the repeated field goes through h.app.request.
    const response = await h.app.request(`http://api.test${action(tenant, "endpoint")}`, {
      method: "POST",
      headers: {
        cookie: [...client.cookies].map(([name, value]) => `${name}=${value}`).join("; "),
        "content-type": "application/x-www-form-urlencoded",
        origin: "http://api.test",
      },
      body: `${body.toString()}&_csrf=${encodeURIComponent(client.csrf)}`,
    });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(`${page(tenant)}&done=saved`);
    expect(await endpointOf(tenant)).toMatchObject({
      url: "https://hooks.example.com/second",
      eventTypes: types,
      secret: `whsec_••••••••${secret.slice(-4)}`,
    });
    const html = await client.page(response.headers.get("location") ?? "");
    expect(html).toContain("Endpoint guardado");
    expect(html).not.toContain('class="secret"');
    for (const type of types) expect(html).toContain(`value="${type}" checked`);
    expect(html).not.toContain('value="payout.failed" checked');
  });

  it("refuses a URL of INVALID_WEBHOOK_URL's table or an unknown event type: the form comes back with the error and what was typed, no endpoint is made", async () => {
    const { tenant, client } = await tenantWithMember("Refused");
    await client.page(page(tenant));
    for (const url of [
      "http://10.0.0.1/hook",
      "https://10.0.0.8/hook",
      "https://billing.internal/hook",
      "/hook",
      "",
    ]) {
      const response = await client.post(action(tenant, "endpoint"), { url });
      expect(response.status, url).toBe(400);
      const html = await response.text();
      expect(html).toContain('data-code="INVALID_WEBHOOK_URL"');
      expect(html).toContain("La URL del webhook no es aceptable");
      expect(html).toContain(`value="${url}"`);
      expect(html).not.toContain('class="secret"');
    }
    const unknownType = await client.post(action(tenant, "endpoint"), {
      url: "https://hooks.example.com/x",
      eventTypes: "settlement.order.lost",
    });
    expect(unknownType.status).toBe(400);
    expect(await unknownType.text()).toContain("tipo de evento desconocido: settlement.order.lost");
    const testType = await client.post(action(tenant, "endpoint"), {
      url: "https://hooks.example.com/x",
      eventTypes: "webhook.test",
    });
    expect(testType.status).toBe(400);
    expect(await endpointOf(tenant)).toBeUndefined();
  });

  it("rotates the secret: the new one is shown once, and the old one keeps signing beside it for 24 hours", async () => {
    const { tenant, client } = await tenantWithMember("Rotate");
    const inbox = await receiver();
    const old = await setInPage(client, tenant, inbox.url);
    const form = (await client.page(page(tenant))).match(/<form[^>]*endpoint\/rotate[^>]*>/)?.[0] ?? "";
    expect(form).toContain("data-confirm=");

    const rotated = await client.post(action(tenant, "endpoint/rotate"), {});
    expect(rotated.status).toBe(200);
    expect(rotated.headers.get("cache-control")).toBe("no-store");
    const html = await rotated.text();
    const secret = shownSecret(html);
    expect(secret).not.toBe(old);
    const until = new Date(h.clock.now().getTime() + 24 * 3600_000).toISOString();
    expect(html).toContain("durante 24 horas");
    expect(html).toContain(`<time datetime="${until}"`);
    expect((await endpointOf(tenant))?.previousSecretValidUntil).toBe(until);
    expect(await client.page(page(tenant))).not.toContain(secret);

    await client.post(action(tenant, "endpoint/test"), {});
    await h.jobs.drain();
    const [request] = inbox.received;
    if (!request) throw new Error("nothing received");
    expect(verifyWebhook(request, secret, h.clock.now()).type).toBe("webhook.test");
    expect(verifyWebhook(request, old, h.clock.now()).type).toBe("webhook.test");
  });

  it("deletes the endpoint through a confirmed form: 303 with a note, and a test event is then refused with its error", async () => {
    const { tenant, client } = await tenantWithMember("Delete");
    await setInPage(client, tenant, "https://hooks.example.com/gone");
    const form = (await client.page(page(tenant))).match(/<form[^>]*endpoint\/delete[^>]*>/)?.[0] ?? "";
    expect(form).toContain('data-confirm="¿Eliminar el endpoint?');

    const deleted = await client.post(action(tenant, "endpoint/delete"), {});
    expect(deleted.status).toBe(303);
    expect(deleted.headers.get("location")).toBe(`${page(tenant)}&done=deleted`);
    expect(await endpointOf(tenant)).toBeUndefined();
    const html = await client.page(deleted.headers.get("location") ?? "");
    expect(html).toContain("Endpoint eliminado");
    expect(html).toContain("Esta integración aún no tiene endpoint");

    for (const path of ["endpoint/test", "endpoint/rotate", "endpoint/delete"]) {
      const refused = await client.post(action(tenant, path), {});
      expect(refused.status, path).toBe(404);
      expect(await refused.text()).toContain('data-code="WEBHOOK_ENDPOINT_NOT_FOUND"');
    }
  });

  it("filters deliveries by status and pages through them with the listing's cursor; a bad filter is a 400 page", async () => {
    const { tenant, client } = await tenantWithMember("Paging");
    const inbox = await receiver();
    await setEndpoint(h, tenant, inbox.url);
    const sent: string[] = [];
    for (let i = 0; i < 22; i++) sent.push(await sendTestEvent(h, tenant));
    await h.jobs.drain();
    const last = await sendTestEvent(h, tenant);

    const first = await client.page(page(tenant, "&status=delivered"));
    expect(first).toContain('<option value="delivered" selected');
    const firstRows = deliveryRows(first);
    expect(firstRows).toHaveLength(20);
    expect(firstRows.every((row) => row.status === "delivered")).toBe(true);
    expect(firstRows[0]?.html).toContain(sent[0]);
    const next = first.match(/<a href="([^"]+)" rel="next">/)?.[1]?.replaceAll("&amp;", "&") ?? "";
    expect(next).toMatch(
      /^\/dashboard\/webhooks\?integration=int_\w+&status=delivered&cursor=dlv_\w+#deliveries$/,
    );
    const second = await client.page(next.replace("#deliveries", ""));
    expect(deliveryRows(second).map((row) => row.status)).toEqual(["delivered", "delivered"]);
    expect(deliveryRows(second)[1]?.html).toContain(sent[21]);
    expect(second).not.toContain('rel="next"');
    expect(second).toContain("Primera página");

    const pending = deliveryRows(await client.page(page(tenant, "&status=pending")));
    expect(pending.map((row) => row.status)).toEqual(["pending"]);
    expect(pending[0]?.html).toContain(last);
    expect(deliveryRows(await client.page(page(tenant))).length).toBe(20);

    for (const query of ["&status=lost", "&cursor=not-a-cursor", "&status=delivered&cursor=dlv_1"]) {
      const refused = await client.get(page(tenant, query));
      expect(refused.status, query).toBe(400);
      const html = await refused.text();
      expect(html).toContain('data-code="INVALID_REQUEST"');
      expect(deliveryRows(html)).toEqual([]);
    }
  });

  it("shows a member of another organization none of this endpoint or its deliveries, and every action on it is a 404 page that changes nothing", async () => {
    const { tenant, client: owner } = await tenantWithMember("Owner");
    const inbox = await receiver();
    await setInPage(owner, tenant, inbox.url);
    const eventId = await sendTestEvent(h, tenant);
    await h.jobs.drain();
    const { tenant: strangers, client: stranger } = await tenantWithMember("Stranger");

    const own = await stranger.page("/dashboard/webhooks");
    expect(own).toContain(strangers.integrationId);
    for (const text of [tenant.integrationId, inbox.url, eventId]) expect(own).not.toContain(text);

    expect((await stranger.get(page(tenant))).status).toBe(404);
    for (const path of [
      "endpoint",
      "endpoint/rotate",
      "endpoint/delete",
      "endpoint/test",
      `events/${eventId}/replay`,
    ]) {
      const refused = await stranger.post(action(tenant, path), { url: "https://evil.example.com/x" });
      expect(refused.status, path).toBe(404);
    }
    // Acme's event replayed from the stranger's own integration: EVENT_NOT_FOUND, a 404 page.
    const replay = await stranger.post(action(strangers, `events/${eventId}/replay`), {});
    expect(replay.status).toBe(404);
    await h.jobs.drain();
    expect(inbox.received).toHaveLength(1);
    expect(await endpointOf(tenant)).toMatchObject({ url: inbox.url, previousSecretValidUntil: null });
    expect((await deliveriesOf(h, tenant)).map((d) => d.trigger)).toEqual(["test"]);
    expect(await endpointOf(strangers)).toBeUndefined();
  });

  it("refuses a POST without the CSRF token with 403 and makes no endpoint", async () => {
    const { tenant, client } = await tenantWithMember("Csrf");
    await client.page(page(tenant));
    for (const response of [
      await client.post(action(tenant, "endpoint"), { url: "https://hooks.example.com/x" }, { csrf: false }),
      await client.post(
        action(tenant, "endpoint"),
        { url: "https://hooks.example.com/x" },
        { origin: "http://evil.test" },
      ),
    ]) {
      expect(response.status).toBe(403);
      expect(await response.text()).not.toContain("whsec_");
    }
    expect(await endpointOf(tenant)).toBeUndefined();
    await setEndpoint(h, tenant, "https://hooks.example.com/x");
    for (const path of ["endpoint/rotate", "endpoint/delete", "endpoint/test"]) {
      expect((await client.post(action(tenant, path), {}, { csrf: false })).status).toBe(403);
    }
    expect(await endpointOf(tenant)).toMatchObject({ previousSecretValidUntil: null });
    expect(await deliveriesOf(h, tenant)).toEqual([]);
  });
});

describe("the webhooks page without WEBHOOK_SECRETS_KEY", () => {
  it("re-renders the form with 503 WEBHOOKS_UNCONFIGURED and makes no endpoint", async () => {
    const bare = await createHarness({
      identity: true,
      env: { WEBHOOK_SECRETS_KEY: "", RATE_LIMIT_PER_IP_PER_MINUTE: "100000" },
    });
    try {
      const tenant = await createTenant(bare, "No secrets key");
      await addMember(bare, tenant.organizationId, "nokey@example.com");
      const client = await signedInClient(bare, "nokey@example.com");
      await client.page(page(tenant));
      const response = await client.post(action(tenant, "endpoint"), { url: "https://hooks.example.com/x" });
      expect(response.status).toBe(503);
      const html = await response.text();
      expect(html).toContain('data-code="WEBHOOKS_UNCONFIGURED"');
      expect(html).toContain('value="https://hooks.example.com/x"');
      expect((await partnerRequest(bare, tenant, "/api/integrations/webhooks/endpoint")).status).toBe(404);
    } finally {
      await bare.close();
    }
  });
});
