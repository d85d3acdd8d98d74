import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWebhookReceiver, type WebhookReceiver } from "../../dev/webhook-receiver";
import { EVENT_BODY_SCHEMAS } from "../../functions/webhooks/catalog";
import type { EventType } from "../../lib/webhooks/event-types";
import { createHarness, type Harness } from "../harness/app";
import { placeOrder, sendPlan, submitBurn } from "../harness/burns";
import { enableBurnPlan, readOrder } from "../harness/settlement";
import { createTenant } from "../harness/tenants";
import { deliveriesOf, setEndpoint, verifyWebhook } from "../harness/webhooks";

describe("settlement events reach the partner's endpoint", () => {
  let h: Harness;
  let inbox: WebhookReceiver;
  beforeAll(async () => {
    h = await createHarness({ chains: true });
    // Down for its first two requests: the order's events still all arrive, in order.
    inbox = await startWebhookReceiver({ answer: (request) => ({ status: request.index < 2 ? 503 : 200 }) });
  }, 60_000);
  afterAll(async () => {
    await inbox.close();
    await h.close();
  });

  it("delivers an order's events from burned to delivered in order, each verified, each carrying the order at that moment", async () => {
    const tenant = await createTenant(h);
    await enableBurnPlan(h, tenant);
    const secret = await setEndpoint(h, tenant, inbox.url);
    const placed = await placeOrder(h, tenant);
    expect((await submitBurn(h, tenant, placed.orderId, await sendPlan(h, placed))).status).toBe(200);
    let status = "";
    for (let poll = 0; poll < 60 && status !== "DELIVERED"; poll++) {
      await h.jobs.drain();
      h.clock.advance(5_000);
      status = (await readOrder(h, tenant, placed.orderId)).status;
    }
    expect(status).toBe("DELIVERED");
    // The first event's third attempt is due 5 min after its first (the schedule: 0 s, 5 s, 5 min).
    for (let minute = 0; minute < 6; minute++) {
      await h.jobs.drain();
      h.clock.advance(60_000);
    }
    await h.jobs.drain();

    const firstArrivals = new Map<string, { type: string; data: { status: string } }>();
    for (const request of inbox.received) {
      const event = verifyWebhook(
        request,
        secret,
        new Date(Number(request.headers["webhook-timestamp"]) * 1000),
      );
      expect(request.headers["webhook-id"]).toBe(event.id);
      if (!firstArrivals.has(event.id)) firstArrivals.set(event.id, event as never);
    }
    expect([...firstArrivals.values()].map((event) => event.type)).toEqual([
      "settlement.order.burned",
      "settlement.order.attested",
      "settlement.order.minted",
      "settlement.order.routing",
      "settlement.order.routed",
      "settlement.order.delivered",
    ]);
    for (const event of firstArrivals.values()) {
      expect(event.data.status).toBe(event.type.split(".").at(-1)?.toUpperCase());
      // What arrives is what the OpenAPI document's webhooks section describes.
      const documented = EVENT_BODY_SCHEMAS[event.type as EventType].safeParse(event);
      expect(documented.error?.issues ?? [], event.type).toEqual([]);
    }
    // The two refused requests were retries of the first event: same webhook-id.
    const ids = inbox.received.map((request) => request.headers["webhook-id"]);
    expect(ids.slice(0, 3)).toEqual(Array(3).fill(ids[0]));
    const deliveries = await deliveriesOf(h, tenant);
    expect(deliveries.map((d) => d.status)).toEqual(Array(6).fill("delivered"));
    expect(deliveries[0]?.attempts).toBe(3);
  }, 120_000);
});
