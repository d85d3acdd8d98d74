import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { route as getOrder } from "../../functions/settlement/get-order";
import { type ListWebhookEventsResponse, route as listEvents } from "../../functions/webhooks/list-events";
import { advanceOrder } from "../../lib/settlement/progress/advance";
import { loadOrderState, markStuck } from "../../lib/settlement/progress/state";
import { createHarness, type Harness } from "../harness/app";
import { bodyOf } from "../harness/bodies";
import { placeOrder, sendPlan, submitBurn } from "../harness/burns";
import { quietContext } from "../harness/context";
import { enableBurnPlan, partnerRequest } from "../harness/settlement";
import { createTenant, type Tenant } from "../harness/tenants";

type ListedEvent = ListWebhookEventsResponse["events"][number];
/** An event carrying a settlement order. */
type OrderEvent = Extract<ListedEvent, { data: { orderId: string } }>;
const isOrderEvent = (event: ListedEvent): event is OrderEvent => "orderId" in event.data;

const STATUS_TYPES = [
  "settlement.order.burned",
  "settlement.order.attested",
  "settlement.order.minted",
  "settlement.order.routing",
  "settlement.order.routed",
  "settlement.order.delivered",
];

describe("the event outbox: settlement orders", () => {
  let h: Harness;
  let tenant: Tenant;
  beforeAll(async () => {
    h = await createHarness({ chains: true });
    tenant = await createTenant(h);
    await enableBurnPlan(h, tenant);
  }, 60_000);
  afterAll(() => h.close());

  const list = async (query = "") => {
    const response = await partnerRequest(h, tenant, `/api/integrations/webhooks/events${query}`);
    return bodyOf(response, listEvents, 200);
  };
  const eventsOf = async (orderId: string) => {
    const events: ListedEvent[] = [];
    let cursor: string | null = null;
    do {
      const page: ListWebhookEventsResponse = await list(`?limit=500${cursor ? `&cursor=${cursor}` : ""}`);
      events.push(...page.events);
      cursor = page.nextCursor;
    } while (cursor);
    return events.filter(isOrderEvent).filter((event) => event.data.orderId === orderId);
  };
  const orderPath = (orderId: string) => `/api/integrations/settlements/orders/${orderId}`;
  const readOrder = async (orderId: string) =>
    bodyOf(await partnerRequest(h, tenant, orderPath(orderId)), getOrder, 200);
  const deliver = async (orderId: string) => {
    for (let poll = 0; poll < 30; poll++) {
      if ((await readOrder(orderId)).status === "DELIVERED") return;
      await h.jobs.drain();
      h.clock.advance(5_000);
    }
    throw new Error(`order ${orderId} was not delivered`);
  };
  const burned = async () => {
    const placed = await placeOrder(h, tenant);
    expect((await submitBurn(h, tenant, placed.orderId, await sendPlan(h, placed))).status).toBe(200);
    return placed.orderId;
  };

  it("records each new status of an order once, in order, each carrying the order as it read at that moment", async () => {
    const orderId = await burned();
    await deliver(orderId);
    const events = await eventsOf(orderId);
    expect(events.map((event) => event.type)).toEqual(STATUS_TYPES);
    for (const event of events) {
      expect(event.id).toMatch(/^evt_[0-9A-Z]{26}$/);
      expect(event.data.status).toBe(event.type.split(".").at(-1)?.toUpperCase());
    }
    // The last event's data is the order exactly as its read endpoint answers now: both compared as
    // sent, since a schema would drop a field only one of them carries.
    const delivered = z
      .object({ events: z.array(z.object({ id: z.string(), data: z.unknown() })) })
      .parse(
        await (
          await partnerRequest(
            h,
            tenant,
            "/api/integrations/webhooks/events?type=settlement.order.delivered&limit=500",
          )
        ).json(),
      );
    const answered: unknown = await (await partnerRequest(h, tenant, orderPath(orderId))).json();
    expect(events.at(-1)?.type).toBe("settlement.order.delivered");
    expect(delivered.events.find((event) => event.id === events.at(-1)?.id)?.data).toEqual(answered);
    // Earlier events carry the timeline as it was then, not as it is now.
    const lengths = events.map((event) => event.data.timeline.length);
    expect(lengths).toEqual([...lengths].sort((a, b) => a - b));
    expect(lengths[0]).toBeLessThan(lengths.at(-1) ?? 0);
  }, 60_000);

  it("records a stuck order and its recovery when it moves again", async () => {
    const orderId = await burned();
    const ctx = quietContext(h);
    const state = await loadOrderState(ctx, orderId);
    if (!state) throw new Error("no order");
    await markStuck(ctx, state, "a test stopped it");
    await markStuck(ctx, { ...state, order: { ...state.order, health: "HEALTHY" } }, "told twice");
    await deliver(orderId);
    const events = await eventsOf(orderId);
    expect(events.map((event) => event.type)).toEqual([
      "settlement.order.burned",
      "settlement.order.stuck",
      "settlement.order.recovered",
      ...STATUS_TYPES.slice(1),
    ]);
    expect(events[1]?.data.health).toBe("STUCK");
    expect(events[2]?.data.health).toBe("HEALTHY");
  }, 60_000);

  it("records one event per move when jobs advance one order concurrently", async () => {
    const orderId = await burned();
    const ctx = quietContext(h);
    for (let poll = 0; poll < 30 && (await readOrder(orderId)).status !== "DELIVERED"; poll++) {
      await Promise.all([advanceOrder(ctx, orderId), advanceOrder(ctx, orderId), advanceOrder(ctx, orderId)]);
      h.clock.advance(5_000);
    }
    expect((await eventsOf(orderId)).map((event) => event.type)).toEqual(STATUS_TYPES);
  }, 60_000);

  it("pages oldest first by cursor, and filters by type and by creation time", async () => {
    const all = (await list("?limit=500")).events;
    expect(all.length).toBeGreaterThanOrEqual(15);
    const ids = all.map((event) => event.id);
    expect(ids).toEqual([...ids].sort());

    const walked: string[] = [];
    let page = await list("?limit=4");
    walked.push(...page.events.map((event) => event.id));
    while (page.nextCursor) {
      expect(page.events).toHaveLength(4);
      page = await list(`?limit=4&cursor=${page.nextCursor}`);
      walked.push(...page.events.map((event) => event.id));
    }
    expect(walked).toEqual(ids);

    const delivered = (await list("?type=settlement.order.delivered")).events;
    expect(delivered).toHaveLength(3);
    expect(delivered.every((event) => event.type === "settlement.order.delivered")).toBe(true);

    const middle = all[Math.floor(all.length / 2)];
    if (!middle) throw new Error("no events");
    const since = (await list(`?since=${encodeURIComponent(middle.createdAt)}`)).events;
    expect(since.length).toBeGreaterThan(0);
    expect(since.every((event) => event.createdAt >= middle.createdAt)).toBe(true);
    expect(since.map((event) => event.id)).toEqual(
      all.filter((event) => event.createdAt >= middle.createdAt).map((event) => event.id),
    );
  });
});
