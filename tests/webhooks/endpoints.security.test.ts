import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startWebhookReceiver, type WebhookReceiver } from "../../dev/webhook-receiver";
import { route as adminCreateIntegration } from "../../functions/tenancy/admin-create-integration";
import { route as getEndpoint } from "../../functions/webhooks/get-endpoint";
import { createHarness, type Harness } from "../harness/app";
import { bodyOf, errorOf } from "../harness/bodies";
import { describePartnerRouteSecurity } from "../harness/partner-security";
import { partnerRequest } from "../harness/settlement";
import { adminRequest, createTenant } from "../harness/tenants";
import { deliveriesOf, sendTestEvent, setEndpoint } from "../harness/webhooks";

let h: Harness;
const receivers: WebhookReceiver[] = [];
beforeAll(async () => {
  h = await createHarness();
});
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});
afterAll(() => h.close());

const ENDPOINT = "/api/integrations/webhooks/endpoint";
for (const [method, path, body] of [
  ["PUT", ENDPOINT, { url: "https://hooks.example.com/x" }],
  ["GET", ENDPOINT, undefined],
  ["DELETE", ENDPOINT, undefined],
  ["POST", `${ENDPOINT}/rotate-secret`, undefined],
  ["POST", `${ENDPOINT}/test`, undefined],
  ["GET", "/api/integrations/webhooks/deliveries", undefined],
  ["POST", "/api/integrations/webhooks/events/evt_01KAZ6XQ4R0000000000000000/replay", undefined],
] as const) {
  describePartnerRouteSecurity(`${method} ${path}`, () => h, {
    method,
    path: () => path,
    ...(body ? { body } : {}),
  });
}

describe("webhook endpoints, events and deliveries are the integration's own", () => {
  it("shows another organization none of the owner's endpoint, deliveries or events, and refuses to replay them", async () => {
    const owner = await createTenant(h, "Owner");
    const stranger = await createTenant(h, "Stranger");
    const inbox = await startWebhookReceiver();
    receivers.push(inbox);
    await setEndpoint(h, owner, inbox.url);
    const eventId = await sendTestEvent(h, owner);
    await h.jobs.drain();

    expect((await partnerRequest(h, stranger, ENDPOINT)).status).toBe(404);
    expect(await deliveriesOf(h, stranger)).toEqual([]);
    const events = await (await partnerRequest(h, stranger, "/api/integrations/webhooks/events")).json();
    expect(events).toEqual({ events: [], nextCursor: null });
    const replay = await partnerRequest(h, stranger, `/api/integrations/webhooks/events/${eventId}/replay`, {
      method: "POST",
    });
    expect(replay.status).toBe(404);
    expect((await errorOf(replay)).code).toBe("EVENT_NOT_FOUND");

    // The stranger's own endpoint, its test and its rotation touch nothing of the owner's.
    const strangerInbox = await startWebhookReceiver();
    receivers.push(strangerInbox);
    await setEndpoint(h, stranger, strangerInbox.url);
    await sendTestEvent(h, stranger);
    await partnerRequest(h, stranger, `${ENDPOINT}/rotate-secret`, { method: "POST" });
    await partnerRequest(h, stranger, ENDPOINT, { method: "DELETE" });
    await h.jobs.drain();
    expect(inbox.received.map((r) => r.headers["webhook-id"])).toEqual([eventId]);
    const owners = await bodyOf(await partnerRequest(h, owner, ENDPOINT), getEndpoint, 200);
    expect(owners.endpoint).toMatchObject({
      url: inbox.url,
      status: "enabled",
      previousSecretValidUntil: null,
    });
    expect((await deliveriesOf(h, owner)).map((d) => d.eventId)).toEqual([eventId]);
  });

  it("keeps a second integration of one organization on its own endpoint", async () => {
    const owner = await createTenant(h, "Owner");
    const second = await adminRequest(h, `/admin/organizations/${owner.organizationId}/integrations`, {
      method: "POST",
      body: { name: "Second app" },
    });
    const { integration } = await bodyOf(second, adminCreateIntegration, 201);
    const read = await adminRequest(h, `/admin/integrations/${integration.id}/webhook-endpoint`);
    expect(read.status).toBe(404);
    const inbox = await startWebhookReceiver();
    receivers.push(inbox);
    const created = await adminRequest(h, `/admin/integrations/${integration.id}/webhook-endpoint`, {
      method: "PUT",
      body: { url: inbox.url },
    });
    expect(created.status).toBe(201);
    // The owner's first integration still has none.
    expect((await partnerRequest(h, owner, ENDPOINT)).status).toBe(404);
    const test = await adminRequest(h, `/admin/integrations/${integration.id}/webhook-endpoint/test`, {
      method: "POST",
    });
    expect(test.status).toBe(202);
    await h.jobs.drain();
    expect(inbox.received).toHaveLength(1);
  });

  it("answers a signing secret with Cache-Control: no-store: the endpoint's creation and its rotation, by the partner and by the admin (issue 37, finding 5)", async () => {
    const partner = await createTenant(h);
    const operated = await createTenant(h);
    const admin = `/admin/integrations/${operated.integrationId}/webhook-endpoint`;
    const body = { url: "https://hooks.example.com/x" };
    const answers: Record<string, Response> = {
      "partner PUT": await partnerRequest(h, partner, ENDPOINT, { method: "PUT", body }),
      "partner rotation": await partnerRequest(h, partner, `${ENDPOINT}/rotate-secret`, { method: "POST" }),
      "admin PUT": await adminRequest(h, admin, { method: "PUT", body }),
      "admin rotation": await adminRequest(h, `${admin}/rotate-secret`, { method: "POST" }),
    };
    const seen: Record<string, [number, boolean, string | null]> = {};
    for (const [name, response] of Object.entries(answers)) {
      const carriesSecret = /"secret":"whsec_[A-Za-z0-9+/=]{20,}"/.test(await response.text());
      seen[name] = [response.status, carriesSecret, response.headers.get("cache-control")];
    }
    expect(seen).toEqual({
      "partner PUT": [201, true, "no-store"],
      "partner rotation": [200, true, "no-store"],
      "admin PUT": [201, true, "no-store"],
      "admin rotation": [200, true, "no-store"],
    });
  });

  it("keeps the admin webhook routes behind the admin token", async () => {
    const owner = await createTenant(h);
    for (const path of [
      "/admin/webhooks/failing-endpoints",
      "/admin/webhooks/deliveries",
      `/admin/integrations/${owner.integrationId}/webhook-endpoint`,
    ]) {
      for (const authorization of [undefined, `Bearer ${owner.apiKey}`, "Bearer wrong"]) {
        const response = await h.app.request(path, { headers: authorization ? { authorization } : {} });
        expect(response.status, `${path} ${authorization}`).toBe(401);
      }
    }
  });
});
