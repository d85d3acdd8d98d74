import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWebhookReceiver, type WebhookReceiver } from "../../dev/webhook-receiver";
import { route as createOrderRoute } from "../../functions/settlement/create-order";
import { route as createApiKey } from "../../functions/tenancy/admin-create-api-key";
import { route as createIntegration } from "../../functions/tenancy/admin-create-integration";
import { route as getOrganization } from "../../functions/tenancy/admin-get-organization";
import { route as getEndpoint } from "../../functions/webhooks/get-endpoint";
import { type ListWebhookEventsResponse, route as listEvents } from "../../functions/webhooks/list-events";
import { organizationOverview, recentLimitOf } from "../../lib/dashboard/overview";
import { runSweep } from "../../lib/kernel/sweep";
import { expireUnpaidPayouts } from "../../lib/payouts/sweep-hooks";
import { loadOrderState, moveOrder } from "../../lib/settlement/progress/state";
import { sendNextDelivery } from "../../lib/webhooks/deliver";
import { createHarness, type Harness } from "../harness/app";
import { bodyOf } from "../harness/bodies";
import { quietContext } from "../harness/context";
import { verifiedBurnMove } from "../harness/moves";
import { approvedUser, createdPayout } from "../harness/payouts";
import { createOrder, createQuote, partnerRequest } from "../harness/settlement";
import { confirmRequest, prepareSwap, sendPrepared, swapWallet, unitsOf } from "../harness/swaps";
import { adminRequest, createTenant, type Tenant } from "../harness/tenants";
import { sendTestEvent, setEndpoint } from "../harness/webhooks";

const BURN_TX = `0x${"cd".repeat(32)}`;
/** A payout small enough for the funded user to make several. */
const SMALL = { destinationCop: "10000" };

let h: Harness;
/** Answers 500: the endpoint it stands behind fails its attempt. */
let failingReceiver: WebhookReceiver;
/** Answers 410 Gone: the endpoint it stands behind is disabled. */
let goneReceiver: WebhookReceiver;
beforeAll(async () => {
  h = await createHarness({ chains: true, payouts: true });
  failingReceiver = await startWebhookReceiver({ answer: () => ({ status: 500 }) });
  goneReceiver = await startWebhookReceiver({ answer: () => ({ status: 410 }) });
}, 60_000);
afterAll(async () => {
  await failingReceiver?.close();
  await goneReceiver?.close();
  await h?.close();
});

/** A further integration of the tenant's organization, with its own first key. */
async function siblingIntegration(tenant: Tenant, name: string): Promise<Tenant> {
  const created = await adminRequest(h, `/admin/organizations/${tenant.organizationId}/integrations`, {
    method: "POST",
    body: { name },
  });
  const { integration } = await bodyOf(created, createIntegration, 201);
  return { ...tenant, integrationId: integration.id, apiKey: await issueKey(integration.id) };
}

async function issueKey(integrationId: string): Promise<string> {
  const issued = await adminRequest(h, `/admin/integrations/${integrationId}/keys`, {
    method: "POST",
    body: {},
  });
  return (await bodyOf(issued, createApiKey, 201)).apiKey;
}

async function revokedKey(integrationId: string): Promise<void> {
  const issued = await adminRequest(h, `/admin/integrations/${integrationId}/keys`, {
    method: "POST",
    body: {},
  });
  const { key } = await bodyOf(issued, createApiKey, 201);
  const revoked = await adminRequest(h, `/admin/integrations/${integrationId}/keys/${key.id}`, {
    method: "DELETE",
  });
  expect(revoked.status).toBe(200);
}

/** An order in CREATED. */
async function placeOrder(tenant: Tenant): Promise<string> {
  h.clock.advance(1_000);
  const quote = await createQuote(h, tenant);
  const response = await createOrder(h, tenant, quote.quoteId, `overview-${quote.quoteId}`);
  return (await bodyOf(response, createOrderRoute, 201)).orderId;
}

async function burn(orderId: string): Promise<void> {
  const ctx = quietContext(h);
  const state = await loadOrderState(ctx, orderId);
  if (!state) throw new Error("no order");
  expect(await moveOrder(ctx, state, verifiedBurnMove(state, 31331, BURN_TX))).toBe(true);
}

/** A prepared USDT → COPm swap; confirmed with its real transaction when `confirm`. */
async function swap(tenant: Tenant, confirm: boolean): Promise<string> {
  const wallet = await swapWallet(h, { USDT: "10" });
  const prepared = await prepareSwap(h, tenant, {
    wallet: wallet.address,
    tokenIn: "USDT",
    tokenOut: "COPm",
    amountIn: unitsOf("USDT", "10").toString(),
  });
  if (confirm) {
    const txHash = await sendPrepared(h, wallet, prepared);
    const confirmed = await confirmRequest(h, tenant, prepared.intentId, { txHash });
    expect(confirmed.status, await confirmed.clone().text()).toBe(200);
  }
  return prepared.intentId;
}

/** Sets the endpoint at `url` and makes one real attempt at its oldest pending delivery. */
async function endpointAttempted(tenant: Tenant, url: string): Promise<void> {
  await setEndpoint(h, tenant, url);
  await sendTestEvent(h, tenant);
  const read = await partnerRequest(h, tenant, "/api/integrations/webhooks/endpoint");
  const { endpoint } = await bodyOf(read, getEndpoint, 200);
  await sendNextDelivery(quietContext(h), endpoint.id);
}

async function integrationsOf(organizationId: string) {
  const response = await adminRequest(h, `/admin/organizations/${organizationId}`);
  return (await bodyOf(response, getOrganization, 200)).integrations;
}

/** The tenant's organization's events, oldest first, each with its data. */
async function eventsOf(tenant: Tenant): Promise<ListWebhookEventsResponse["events"]> {
  const response = await partnerRequest(h, tenant, "/api/integrations/webhooks/events?limit=500");
  return (await bodyOf(response, listEvents, 200)).events;
}

/**
 * Organization A: two integrations. The first holds three keys (one revoked), three orders (one
 * BURNED), an expired and an awaiting payout, a prepared swap that was never confirmed, and an
 * endpoint whose receiver answered 500. The second holds one key, one order, one confirmed swap and
 * a deleted endpoint. Organization B holds a little of everything, its endpoint disabled by a 410.
 */
describe("the organization overview", () => {
  let a1: Tenant;
  let a2: Tenant;
  let b: Tenant;
  const ids = { a1Orders: [] as string[], a2Order: "", bOrder: "", a2Swap: "", bSwap: "", a1Prepared: "" };
  const payouts = { a1Expired: "", a1Awaiting: "", bAwaiting: "" };

  beforeAll(async () => {
    a1 = await createTenant(h, "Overview A");
    a2 = await siblingIntegration(a1, "Overview A, second app");
    b = await createTenant(h, "Overview B");
    await issueKey(a1.integrationId);
    await revokedKey(a1.integrationId);
    await issueKey(b.integrationId);

    for (let i = 0; i < 3; i++) ids.a1Orders.push(await placeOrder(a1));
    await burn(ids.a1Orders[1] as string);
    ids.a2Order = await placeOrder(a2);
    ids.bOrder = await placeOrder(b);

    const a1User = await approvedUser(h, a1, { usdc: "100" });
    const bUser = await approvedUser(h, b, { usdc: "100" });
    const expiring = await createdPayout(h, a1, a1User, SMALL);
    payouts.a1Expired = expiring.payout.payoutId;
    h.clock.set(new Date(Date.parse(expiring.payout.depositDeadline) + 1_000));
    await runSweep(quietContext(h), [expireUnpaidPayouts]);
    payouts.a1Awaiting = (await createdPayout(h, a1, a1User, SMALL)).payout.payoutId;
    payouts.bAwaiting = (await createdPayout(h, b, bUser, SMALL)).payout.payoutId;

    ids.a1Prepared = await swap(a1, false);
    ids.a2Swap = await swap(a2, true);
    ids.bSwap = await swap(b, true);

    await endpointAttempted(a1, `${failingReceiver.url}`);
    await endpointAttempted(b, `${goneReceiver.url}`);
    await setEndpoint(h, a2, "https://hooks.example.com/a2");
    const deleted = await partnerRequest(h, a2, "/api/integrations/webhooks/endpoint", { method: "DELETE" });
    expect(deleted.status).toBe(200);
  }, 180_000);

  it("counts each integration's active keys, orders and payouts by status, confirmed swaps and live endpoint", async () => {
    const overview = await organizationOverview(quietContext(h), a1.organizationId);
    const [first, second] = await integrationsOf(a1.organizationId);
    expect(overview.integrations).toEqual([
      {
        id: a1.integrationId,
        name: first?.name,
        createdAt: first?.createdAt,
        activeKeys: 2,
        settlementOrders: { BURNED: 1, CREATED: 2 },
        payouts: { awaiting_deposit: 1, expired: 1 },
        swaps: 0,
        webhook: {
          url: failingReceiver.url,
          enabled: true,
          disabledReason: null,
          consecutiveFailures: 1,
          flaggedAt: null,
          failing: true,
        },
      },
      {
        id: a2.integrationId,
        name: "Overview A, second app",
        createdAt: second?.createdAt,
        activeKeys: 1,
        settlementOrders: { CREATED: 1 },
        payouts: {},
        swaps: 1,
        webhook: null,
      },
    ]);
    // The signing secret is not in the answer in any form.
    expect(JSON.stringify(overview)).not.toMatch(/whsec_|secret/i);

    const byB = await organizationOverview(quietContext(h), b.organizationId);
    expect(byB.integrations).toEqual([
      expect.objectContaining({
        id: b.integrationId,
        activeKeys: 2,
        settlementOrders: { CREATED: 1 },
        payouts: { awaiting_deposit: 1 },
        swaps: 1,
        webhook: expect.objectContaining({ enabled: false, disabledReason: expect.any(String) }),
      }),
    ]);
  });

  it("names each recent event's resource (the id its data carries), newest first, without its data", async () => {
    const overview = await organizationOverview(quietContext(h), a1.organizationId);
    const listed = (await eventsOf(a1)).reverse();
    expect(listed.map((event) => event.type)).toEqual([
      "webhook.test",
      "swap.confirmed",
      "payout.awaiting_deposit",
      "payout.expired",
      "payout.awaiting_deposit",
      "settlement.order.burned",
    ]);
    const resourceOf = (data: Record<string, unknown>) =>
      data.orderId ?? data.payoutId ?? data.intentId ?? data.endpointId;
    expect(overview.recentEvents).toEqual(
      listed.map((event) => ({
        id: event.id,
        type: event.type,
        createdAt: event.createdAt,
        integrationId: event.type === "swap.confirmed" ? a2.integrationId : a1.integrationId,
        resourceId: resourceOf(event.data),
      })),
    );
    expect(overview.recentEvents.map((event) => event.resourceId).slice(1, 6)).toEqual([
      ids.a2Swap,
      payouts.a1Awaiting,
      payouts.a1Expired,
      payouts.a1Expired,
      ids.a1Orders[1],
    ]);
  });

  it("never answers another organization's integrations, counts, endpoints or events", async () => {
    const ofA = await organizationOverview(quietContext(h), a1.organizationId, { recentLimit: 50 });
    const ofB = await organizationOverview(quietContext(h), b.organizationId, { recentLimit: 50 });
    expect(ofA.integrations.map((integration) => integration.id)).toEqual([
      a1.integrationId,
      a2.integrationId,
    ]);
    expect(ofB.integrations.map((integration) => integration.id)).toEqual([b.integrationId]);
    // B's rows, of every kind, appear nowhere in A's answer, and A's nowhere in B's.
    const aText = JSON.stringify(ofA);
    const bText = JSON.stringify(ofB);
    for (const id of [b.integrationId, ids.bOrder, ids.bSwap, payouts.bAwaiting, goneReceiver.url]) {
      expect(aText).not.toContain(id);
    }
    for (const id of [a1.integrationId, a2.integrationId, ...ids.a1Orders, ids.a2Swap, payouts.a1Awaiting]) {
      expect(bText).not.toContain(id);
    }
    expect(ofA.recentEvents.map((event) => event.id)).toEqual(
      (await eventsOf(a1)).map((e) => e.id).reverse(),
    );
    expect(ofB.recentEvents.map((event) => event.id)).toEqual((await eventsOf(b)).map((e) => e.id).reverse());
    expect(ofB.recentEvents.map((event) => event.type)).toEqual([
      "webhook.test",
      "swap.confirmed",
      "payout.awaiting_deposit",
    ]);
    // An organization that holds nothing (or does not exist) sees nothing of anyone's.
    const empty = await createTenant(h, "Overview empty");
    const ofEmpty = await organizationOverview(quietContext(h), empty.organizationId);
    expect(ofEmpty).toEqual({
      integrations: [
        expect.objectContaining({
          activeKeys: 1,
          settlementOrders: {},
          payouts: {},
          swaps: 0,
          webhook: null,
        }),
      ],
      recentEvents: [],
      discrepancies: [],
    });
    expect(await organizationOverview(quietContext(h), "org_00000000000000000000000000")).toEqual({
      integrations: [],
      recentEvents: [],
      discrepancies: [],
    });
  });

  it("answers in eight statements however much the organization holds, each filtered by the organization", async () => {
    for (const tenant of [a1, b]) {
      h.queries.length = 0;
      await organizationOverview(quietContext(h), tenant.organizationId);
      expect(h.queries).toHaveLength(8);
      for (const sql of h.queries) expect(sql).toMatch(/"organization_id" = \$1/);
    }
  });
});

describe("recent events", () => {
  let tenant: Tenant;
  /** Oldest first, one second apart. */
  const sent: string[] = [];
  beforeAll(async () => {
    tenant = await createTenant(h, "Overview events");
    await setEndpoint(h, tenant, "https://hooks.example.com/events");
    for (let i = 0; i < 55; i++) {
      h.clock.advance(1_000);
      sent.push(await sendTestEvent(h, tenant));
    }
  }, 60_000);

  const recent = async (recentLimit?: number) =>
    (
      await organizationOverview(
        quietContext(h),
        tenant.organizationId,
        recentLimit === undefined ? {} : { recentLimit },
      )
    ).recentEvents;
  const newest = (n: number) => sent.slice(-n).reverse();

  it("answers the newest ten by default, newest first", async () => {
    const events = await recent();
    expect(events.map((event) => event.id)).toEqual(newest(10));
    const times = events.map((event) => Date.parse(event.createdAt));
    expect(times).toEqual([...times].sort((x, y) => y - x));
    expect(times[0]).toBe(h.clock.now().getTime());
    expect(times[0] as number).toBeGreaterThan(times[9] as number);
    expect(events[0]).toEqual({
      id: sent.at(-1),
      type: "webhook.test",
      createdAt: h.clock.now().toISOString(),
      integrationId: tenant.integrationId,
      resourceId: expect.stringMatching(/^wep_/),
    });
  });

  it("clamps the limit to 1..50", async () => {
    expect((await recent(3)).map((event) => event.id)).toEqual(newest(3));
    expect((await recent(1)).map((event) => event.id)).toEqual(newest(1));
    expect((await recent(0)).map((event) => event.id)).toEqual(newest(1));
    expect((await recent(-7)).map((event) => event.id)).toEqual(newest(1));
    expect((await recent(50)).map((event) => event.id)).toEqual(newest(50));
    expect((await recent(51)).map((event) => event.id)).toEqual(newest(50));
    expect((await recent(1_000)).map((event) => event.id)).toEqual(newest(50));
    expect((await recent(2.9)).map((event) => event.id)).toEqual(newest(2));
    expect(await recent(Number.NaN)).toHaveLength(10);
    expect([recentLimitOf(undefined), recentLimitOf(Number.POSITIVE_INFINITY)]).toEqual([10, 10]);
  });
});
