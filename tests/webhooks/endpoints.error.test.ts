import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { route as listDeliveries } from "../../functions/webhooks/list-deliveries";
import { route as sendTestEvent } from "../../functions/webhooks/send-test-event";
import { createHarness, type Harness } from "../harness/app";
import { bodyOf, errorOf } from "../harness/bodies";
import { partnerRequest } from "../harness/settlement";
import { adminRequest, createTenant, type Tenant } from "../harness/tenants";

const ENDPOINT = "/api/integrations/webhooks/endpoint";

describe("webhook endpoints and deliveries: bad input changes nothing", () => {
  let h: Harness;
  let tenant: Tenant;
  beforeAll(async () => {
    h = await createHarness();
    tenant = await createTenant(h);
  });
  afterAll(() => h.close());

  const put = (body: unknown) => partnerRequest(h, tenant, ENDPOINT, { method: "PUT", body });
  const expectNoEndpoint = async () => {
    const read = await partnerRequest(h, tenant, ENDPOINT);
    expect(read.status).toBe(404);
    expect((await errorOf(read)).code).toBe("WEBHOOK_ENDPOINT_NOT_FOUND");
  };

  it.each([
    ["http in a public name", "http://hooks.example.com/x", "https"],
    ["credentials", "https://user:pw@hooks.example.com/x", "credentials"],
    ["the cloud metadata address", "https://169.254.169.254/latest", "IP address"],
    ["a private IP address", "https://10.0.0.8/hook", "IP address"],
    ["an internal name", "https://billing.internal/hook", "internal"],
    ["an IPv6 loopback", "https://[::1]/hook", "IP address"],
    ["a relative URL", "/hook", "absolute"],
  ])("refuses %s with 400 INVALID_WEBHOOK_URL naming body.url", async (_what, url, reason) => {
    const response = await put({ url });
    expect(response.status).toBe(400);
    const { body } = await errorOf(response);
    expect(body.error).toMatchObject({
      code: "INVALID_WEBHOOK_URL",
      retryable: false,
      nextAction: "FIX_REQUEST",
    });
    expect(body.error.problems).toEqual([
      { field: "body.url", code: "INVALID_WEBHOOK_URL", problem: expect.stringContaining(reason) },
    ]);
    await expectNoEndpoint();
  });

  it.each([
    ["no url", {}, "url"],
    ["a url that is not a string", { url: 42 }, "url"],
    [
      "an unknown event type",
      { url: "https://hooks.example.com/x", eventTypes: ["settlement.order.lost"] },
      "eventTypes.0",
    ],
    [
      "the test event as a subscription",
      { url: "https://hooks.example.com/x", eventTypes: ["webhook.test"] },
      "eventTypes.0",
    ],
    ["an empty list of event types", { url: "https://hooks.example.com/x", eventTypes: [] }, "eventTypes"],
    ["an unknown field", { url: "https://hooks.example.com/x", secret: "whsec_mine" }, "secret"],
  ])("refuses %s with 400 INVALID_REQUEST", async (_what, body, field) => {
    const response = await put(body);
    expect(response.status).toBe(400);
    const { body: read } = await errorOf(response);
    expect(read.error.code).toBe("INVALID_REQUEST");
    expect(read.error.problems?.map((p) => p.field)).toContain(`body.${field}`);
    await expectNoEndpoint();
  });

  it("answers WEBHOOK_ENDPOINT_NOT_FOUND for every endpoint verb while there is none", async () => {
    for (const [method, path] of [
      ["GET", ENDPOINT],
      ["DELETE", ENDPOINT],
      ["POST", `${ENDPOINT}/rotate-secret`],
      ["POST", `${ENDPOINT}/test`],
    ] as const) {
      const response = await partnerRequest(h, tenant, path, { method });
      expect(response.status, `${method} ${path}`).toBe(404);
      expect((await errorOf(response)).code).toBe("WEBHOOK_ENDPOINT_NOT_FOUND");
    }
  });

  it("answers EVENT_NOT_FOUND for a replay of an unknown event, and WEBHOOK_ENDPOINT_NOT_FOUND once it exists without an endpoint", async () => {
    const unknown = await partnerRequest(
      h,
      tenant,
      "/api/integrations/webhooks/events/evt_01KAZ6XQ4R0000000000000000/replay",
      {
        method: "POST",
      },
    );
    expect(unknown.status).toBe(404);
    expect((await errorOf(unknown)).code).toBe("EVENT_NOT_FOUND");

    const created = await put({ url: "https://hooks.example.com/x" });
    expect(created.status).toBe(201);
    const test = await partnerRequest(h, tenant, `${ENDPOINT}/test`, { method: "POST" });
    const { event } = await bodyOf(test, sendTestEvent, 202);
    expect((await partnerRequest(h, tenant, ENDPOINT, { method: "DELETE" })).status).toBe(200);
    const replay = await partnerRequest(h, tenant, `/api/integrations/webhooks/events/${event.id}/replay`, {
      method: "POST",
    });
    expect(replay.status).toBe(404);
    expect((await errorOf(replay)).code).toBe("WEBHOOK_ENDPOINT_NOT_FOUND");
    // The deleted endpoint's pending delivery failed, saying why; it is still listed.
    const deliveries = await bodyOf(
      await partnerRequest(h, tenant, "/api/integrations/webhooks/deliveries"),
      listDeliveries,
      200,
    );
    expect(deliveries.deliveries).toEqual([
      expect.objectContaining({
        eventId: event.id,
        status: "failed",
        failedReason: "the endpoint was deleted",
      }),
    ]);
    await expectNoEndpoint();
  });

  it.each([
    ["status=lost", "status"],
    ["eventType=settlement.order.lost", "eventType"],
    ["limit=0", "limit"],
    ["limit=501", "limit"],
    ["since=tomorrow", "since"],
    ["cursor=evt_01KAZ6XQ4R0000000000000000", "cursor"],
  ])("refuses deliveries?%s with 400 INVALID_REQUEST naming the %s field", async (query, field) => {
    for (const response of [
      await partnerRequest(h, tenant, `/api/integrations/webhooks/deliveries?${query}`),
      await adminRequest(h, `/admin/webhooks/deliveries?${query}`),
    ]) {
      expect(response.status).toBe(400);
      const { body } = await errorOf(response);
      expect(body.error.code).toBe("INVALID_REQUEST");
      expect(body.error.problems?.map((p) => p.field)).toEqual([`query.${field}`]);
    }
  });

  it("answers INTEGRATION_NOT_FOUND for the operator's endpoint verbs on an unknown integration", async () => {
    const path = "/admin/integrations/int_01KAZ6XQ4R0000000000000000/webhook-endpoint";
    for (const [method, suffix] of [
      ["GET", ""],
      ["PUT", ""],
      ["DELETE", ""],
      ["POST", "/rotate-secret"],
      ["POST", "/test"],
    ] as const) {
      const response = await adminRequest(h, `${path}${suffix}`, {
        method,
        ...(method === "PUT" ? { body: { url: "https://hooks.example.com/x" } } : {}),
      });
      expect(response.status, `${method} ${suffix}`).toBe(404);
      expect((await errorOf(response)).code).toBe("INTEGRATION_NOT_FOUND");
    }
  });
});

describe("webhooks without WEBHOOK_SECRETS_KEY", () => {
  it("answers 503 WEBHOOKS_UNCONFIGURED and creates nothing", async () => {
    const h = await createHarness({ env: { WEBHOOK_SECRETS_KEY: "" } });
    try {
      const tenant = await createTenant(h);
      const response = await partnerRequest(h, tenant, ENDPOINT, {
        method: "PUT",
        body: { url: "https://hooks.example.com/x" },
      });
      expect(response.status).toBe(503);
      expect(await errorOf(response)).toMatchObject({
        code: "WEBHOOKS_UNCONFIGURED",
        nextAction: "CONTACT_SUPPORT",
      });
      expect((await partnerRequest(h, tenant, ENDPOINT)).status).toBe(404);
    } finally {
      await h.close();
    }
  });
});
