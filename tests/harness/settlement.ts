import { eq } from "drizzle-orm";
import type { GetSettlementOrderResponse } from "../../functions/settlement/get-order";
import type { LegStatus } from "../../lib/settlement/legs/deadlines";
import { settlementEvents, settlementOrders, settlementTransactions } from "../../schema";
import { Copm } from "../../sdk/src";
import { createHarness, type Harness, type HarnessOptions } from "./app";
import { adminRequest, createTenant, type Tenant } from "./tenants";

export const SOURCE_ADDRESS = "0x90F79bf6EB2c4f870365E785982E1f101E93b906";
export const DESTINATION_ADDRESS = "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65";

export function partnerRequest(
  h: Harness,
  tenant: Tenant,
  path: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  return h.app.request(path, {
    method: init.method ?? "GET",
    headers: {
      authorization: `Bearer ${tenant.apiKey}`,
      "content-type": "application/json",
      ...init.headers,
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
}

/**
 * The partner SDK run in-process against the harness's app, with the tenant's key: typed requests
 * and answers, and CopmApiError for any failure, as a partner's code gets them.
 */
export function copmFor(h: Harness, tenant: Tenant): Copm {
  return new Copm({
    baseUrl: "http://copm.test",
    apiKey: tenant.apiKey,
    fetch: async (input, init) => h.app.fetch(new Request(input, init)),
    // A test sees each answer as the service gave it: no retries.
    retry: { maxRetries: 0 },
  });
}

export async function createQuote(h: Harness, tenant: Tenant, sendAmountUsdc = "100") {
  const { data } = await copmFor(h, tenant).createSettlementQuote({
    body: { sendAmountUsdc, sourceAddress: SOURCE_ADDRESS, destinationAddress: DESTINATION_ADDRESS },
  });
  return data;
}

export function createOrder(
  h: Harness,
  tenant: Tenant,
  quoteId: string,
  idempotencyKey: string,
  extra: Record<string, unknown> = {},
) {
  return partnerRequest(h, tenant, "/api/integrations/settlements/orders", {
    method: "POST",
    headers: { "idempotency-key": idempotencyKey },
    body: { quoteId, ...extra },
  });
}

/**
 * What the settlement suites start from: the app on the local chains, and a tenant whose organization
 * has the signed burn plan; optionally the local vendors' slow legs (`slowLegMs`, the test amounts'
 * windows) against leg deadlines in seconds.
 */
export async function settlementSuite(
  options: HarnessOptions & { slowLegMs?: number; deadlines?: Partial<Record<LegStatus, number>> } = {},
): Promise<{ h: Harness; tenant: Tenant }> {
  const { slowLegMs, deadlines, ...harness } = options;
  const h = await createHarness({
    chains: true,
    ...harness,
    vendors: {
      ...harness.vendors,
      circle: { ...(slowLegMs === undefined ? {} : { slowLegMs }), ...harness.vendors?.circle },
      aggregator: { ...(slowLegMs === undefined ? {} : { slowLegMs }), ...harness.vendors?.aggregator },
    },
    env: {
      ...(deadlines === undefined ? {} : { SETTLEMENT_LEG_DEADLINES: JSON.stringify(deadlines) }),
      ...harness.env,
    },
  });
  const tenant = await createTenant(h);
  await enableBurnPlan(h, tenant);
  return { h, tenant };
}

export async function enableBurnPlan(h: Harness, tenant: Tenant) {
  const response = await adminRequest(h, `/admin/organizations/${tenant.organizationId}`, {
    method: "PATCH",
    body: { burnPlanEnabled: true },
  });
  if (response.status !== 200) throw new Error(`enable burn plan failed: ${response.status}`);
}

/** An order as its read endpoint answers it. */
export type OrderRead = GetSettlementOrderResponse;

export async function readOrder(h: Harness, tenant: Tenant, orderId: string): Promise<OrderRead> {
  const { data } = await copmFor(h, tenant).getSettlementOrder({ path: { orderId } });
  return data;
}

/** The order's row, its recorded payments and its timeline entries, as the database has them. */
export async function orderRow(h: Harness, orderId: string) {
  return (await h.database.db.select().from(settlementOrders).where(eq(settlementOrders.id, orderId)))[0];
}

export function orderPayments(h: Harness, orderId: string) {
  return h.database.db
    .select()
    .from(settlementTransactions)
    .where(eq(settlementTransactions.orderId, orderId));
}

export function orderEvents(h: Harness, orderId: string) {
  return h.database.db.select().from(settlementEvents).where(eq(settlementEvents.orderId, orderId));
}
