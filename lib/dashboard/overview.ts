import { and, asc, count, desc, eq, gt, inArray, isNull, or } from "drizzle-orm";
import {
  apiKeys,
  brebPayouts,
  integrations,
  settlementOrders,
  swapIntents,
  webhookEndpoints,
  webhookEvents,
} from "../../schema";
import type { ServiceContext } from "../kernel/context";
import { discrepancyView, openDiscrepancies } from "../reconciliation/read-reconciliation";

const RECENT_EVENTS_DEFAULT = 10;
const RECENT_EVENTS_MAX = 50;

/** The live endpoint's state as the dashboard shows it. Never its secret, not even masked. */
interface WebhookOverview {
  url: string;
  enabled: boolean;
  /** Why it was disabled (a 410 Gone from the receiver), or null. */
  disabledReason: string | null;
  /** Failed attempts since the last successful one. */
  consecutiveFailures: number;
  /** When a delivery ran out of attempts; cleared by the next success. */
  flaggedAt: string | null;
  /** Failed its last attempt or flagged: the receiver needs looking at. */
  failing: boolean;
}

export interface IntegrationOverview {
  id: string;
  name: string;
  createdAt: string;
  /** API keys not revoked. */
  activeKeys: number;
  /** Settlement orders per status, as the order rows store it (`CREATED`, `BURNED`, …); absent means none. */
  settlementOrders: Record<string, number>;
  /** BRE-B payouts per status (`awaiting_deposit`, `completed`, …); absent means none. */
  payouts: Record<string, number>;
  /** Confirmed swaps; a prepared intent is not a swap. */
  swaps: number;
  webhook: WebhookOverview | null;
}

/** An outbox event without its data: the dashboard links to the resource instead. */
export interface RecentEvent {
  id: string;
  type: string;
  createdAt: string;
  integrationId: string;
  /** The id of the resource the event is about: the order, payout or swap intent (an endpoint for `webhook.test`). */
  resourceId: string;
}

export interface OrganizationOverview {
  integrations: IntegrationOverview[];
  recentEvents: RecentEvent[];
  /** What the daily reconciliation found the chains do not show, still open (docs/reconciliation.md). */
  discrepancies: ReturnType<typeof discrepancyView>[];
}

/** 1 to RECENT_EVENTS_MAX events; anything that is not a number asks for the default. */
export function recentLimitOf(requested: number | undefined): number {
  if (requested === undefined || !Number.isFinite(requested)) return RECENT_EVENTS_DEFAULT;
  return Math.min(RECENT_EVENTS_MAX, Math.max(1, Math.trunc(requested)));
}

/**
 * What the partner dashboard's overview shows for one organization: each integration with its
 * active keys, its orders and payouts counted by status, its confirmed swaps and its webhook
 * endpoint, then the organization's latest events, newest first. At most seven statements whatever
 * the organization holds (counts are grouped in the database). Every statement is filtered by the
 * organization, and the per-integration counts also by its integrations' ids, which is what their
 * indexes lead with. The organization is not looked up: the caller (a dashboard session) has
 * resolved it, and an unknown id answers empty lists.
 */
export async function organizationOverview(
  ctx: ServiceContext,
  organizationId: string,
  options: { recentLimit?: number } = {},
): Promise<OrganizationOverview> {
  const [recentEvents, open] = await Promise.all([
    latestEvents(ctx, organizationId, recentLimitOf(options.recentLimit)),
    openDiscrepancies(ctx, organizationId),
  ]);
  const discrepancies = open.map(discrepancyView);
  const owned = await ctx.db
    .select({ id: integrations.id, name: integrations.name, createdAt: integrations.createdAt })
    .from(integrations)
    .where(eq(integrations.organizationId, organizationId))
    .orderBy(asc(integrations.id));
  if (owned.length === 0) return { integrations: [], recentEvents, discrepancies };
  const ids = owned.map((integration) => integration.id);

  const keys = await ctx.db
    .select({ integrationId: apiKeys.integrationId, count: count() })
    .from(apiKeys)
    .where(
      and(
        eq(apiKeys.organizationId, organizationId),
        inArray(apiKeys.integrationId, ids),
        isNull(apiKeys.revokedAt),
        // An expired key is no more active than a revoked one (MAX_ACTIVE_KEYS counts the same way).
        or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, ctx.clock.now())),
      ),
    )
    .groupBy(apiKeys.integrationId);
  const orders = await ctx.db
    .select({
      integrationId: settlementOrders.integrationId,
      status: settlementOrders.status,
      count: count(),
    })
    .from(settlementOrders)
    .where(
      and(eq(settlementOrders.organizationId, organizationId), inArray(settlementOrders.integrationId, ids)),
    )
    .groupBy(settlementOrders.integrationId, settlementOrders.status)
    .orderBy(asc(settlementOrders.status));
  const payouts = await ctx.db
    .select({ integrationId: brebPayouts.integrationId, status: brebPayouts.status, count: count() })
    .from(brebPayouts)
    .where(and(eq(brebPayouts.organizationId, organizationId), inArray(brebPayouts.integrationId, ids)))
    .groupBy(brebPayouts.integrationId, brebPayouts.status)
    .orderBy(asc(brebPayouts.status));
  const swaps = await ctx.db
    .select({ integrationId: swapIntents.integrationId, count: count() })
    .from(swapIntents)
    .where(
      and(
        eq(swapIntents.organizationId, organizationId),
        inArray(swapIntents.integrationId, ids),
        eq(swapIntents.status, "confirmed"),
      ),
    )
    .groupBy(swapIntents.integrationId);
  // A deleted endpoint is kept for the record; only the live one (at most one per integration) counts.
  const endpoints = await ctx.db
    .select({
      integrationId: webhookEndpoints.integrationId,
      url: webhookEndpoints.url,
      status: webhookEndpoints.status,
      disabledReason: webhookEndpoints.disabledReason,
      consecutiveFailures: webhookEndpoints.consecutiveFailures,
      flaggedAt: webhookEndpoints.flaggedAt,
    })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.organizationId, organizationId), isNull(webhookEndpoints.deletedAt)));

  const keysOf = new Map(keys.map((row) => [row.integrationId, row.count]));
  const swapsOf = new Map(swaps.map((row) => [row.integrationId, row.count]));
  const endpointOf = new Map(endpoints.map((row) => [row.integrationId, row]));
  return {
    discrepancies,
    integrations: owned.map((integration) => {
      const endpoint = endpointOf.get(integration.id);
      return {
        id: integration.id,
        name: integration.name,
        createdAt: integration.createdAt.toISOString(),
        activeKeys: keysOf.get(integration.id) ?? 0,
        settlementOrders: byStatus(orders, integration.id),
        payouts: byStatus(payouts, integration.id),
        swaps: swapsOf.get(integration.id) ?? 0,
        webhook: endpoint
          ? {
              url: endpoint.url,
              enabled: endpoint.status !== "disabled",
              disabledReason: endpoint.disabledReason,
              consecutiveFailures: endpoint.consecutiveFailures,
              flaggedAt: endpoint.flaggedAt?.toISOString() ?? null,
              failing: endpoint.consecutiveFailures > 0 || endpoint.flaggedAt !== null,
            }
          : null,
      };
    }),
    recentEvents,
  };
}

/**
 * Newest first by id (ids sort by creation). `subject_id` is the id the event's `data` names
 * (`orderId`, `payoutId`, `intentId`), kept beside it by the outbox, so the data itself is never read.
 */
async function latestEvents(
  ctx: ServiceContext,
  organizationId: string,
  limit: number,
): Promise<RecentEvent[]> {
  const rows = await ctx.db
    .select({
      id: webhookEvents.id,
      type: webhookEvents.type,
      createdAt: webhookEvents.createdAt,
      integrationId: webhookEvents.integrationId,
      resourceId: webhookEvents.subjectId,
    })
    .from(webhookEvents)
    .where(eq(webhookEvents.organizationId, organizationId))
    .orderBy(desc(webhookEvents.id))
    .limit(limit);
  return rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
}

function byStatus(
  rows: ReadonlyArray<{ integrationId: string; status: string; count: number }>,
  integrationId: string,
): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const row of rows) if (row.integrationId === integrationId) counts[row.status] = row.count;
  return counts;
}
