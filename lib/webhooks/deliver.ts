import { and, asc, eq, inArray, isNull, lte, or } from "drizzle-orm";
import { z } from "zod";
import { webhookAttempts, webhookDeliveries, webhookEndpoints, webhookEvents } from "../../schema";
import type { ServiceContext } from "../context";
import type { Database } from "../db/database";
import { newId } from "../ids";
import { defineJob } from "../jobs/definition";
import { signingSecrets } from "./endpoint-secrets";
import { checkWebhookUrl } from "./endpoint-url";
import { eventView } from "./list-events";
import { type PostOutcome, postWebhook } from "./post";
import { retryAfterSeconds, secondsUntilRetry } from "./retry-schedule";
import { signedHeaders } from "./signature";

type EndpointRow = typeof webhookEndpoints.$inferSelect;
type DeliveryRow = typeof webhookDeliveries.$inferSelect;

/** Beyond the receiver's timeout, how long a sending job may hold its endpoint. */
const LEASE_MARGIN_MS = 45_000;

/**
 * Sends an endpoint's next due delivery. One job per step: it attempts at most one delivery, then
 * schedules the endpoint's next step, so each endpoint has one chain of jobs and no endpoint waits
 * for another.
 */
export const deliverWebhooksJob = defineJob({
  kind: "deliver-webhooks",
  payload: z.object({ endpointId: z.string().min(1) }),
  async run(ctx, { endpointId }) {
    await sendNextDelivery(ctx, endpointId);
  },
});

/** After a change committed: sets the integrations' endpoints sending what it queued. */
export async function dispatchWebhooks(
  ctx: ServiceContext,
  integrationIds: readonly string[],
): Promise<void> {
  if (integrationIds.length === 0) return;
  const endpoints = await ctx.db
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(
      and(
        inArray(webhookEndpoints.integrationId, [...new Set(integrationIds)]),
        isNull(webhookEndpoints.deletedAt),
        eq(webhookEndpoints.status, "enabled"),
      ),
    );
  for (const endpoint of endpoints) await scheduleEndpoint(ctx, endpoint.id);
}

/**
 * Enqueues the job for the endpoint's head delivery (its oldest pending one), at the time it is due.
 * The deduplication id names the head and its attempt, so many triggers of the same step (events
 * arriving while a retry waits) schedule one job; the sweep, recovering a lost job, passes
 * `dedupe: false`.
 */
export async function scheduleEndpoint(
  ctx: ServiceContext,
  endpointId: string,
  options: { dedupe?: boolean } = {},
): Promise<boolean> {
  const head = await headDelivery(ctx, endpointId);
  if (!head) return false;
  const waitMs = (head.nextAttemptAt?.getTime() ?? 0) - ctx.clock.now().getTime();
  await ctx.jobs.enqueue(
    deliverWebhooksJob,
    { endpointId },
    {
      delaySeconds: Math.max(0, Math.ceil(waitMs / 1000)),
      ...(options.dedupe === false ? {} : { dedupeId: `webhook-${head.id}-${head.attempts}` }),
    },
  );
  return true;
}

async function headDelivery(ctx: ServiceContext, endpointId: string): Promise<DeliveryRow | undefined> {
  const [head] = await ctx.db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.status, "pending")))
    .orderBy(asc(webhookDeliveries.id))
    .limit(1);
  return head;
}

/**
 * Takes the endpoint's lease (one sender at a time keeps its deliveries in order), attempts the head
 * delivery if it is due, gives the lease back, then schedules what comes next. The lease is given
 * back before looking for the next delivery, so one queued meanwhile is never missed.
 */
export async function sendNextDelivery(ctx: ServiceContext, endpointId: string): Promise<void> {
  const now = ctx.clock.now();
  const leaseUntil = new Date(now.getTime() + ctx.config.WEBHOOK_TIMEOUT_MS + LEASE_MARGIN_MS);
  const [endpoint] = await ctx.db
    .update(webhookEndpoints)
    .set({ leaseUntil })
    .where(
      and(
        eq(webhookEndpoints.id, endpointId),
        isNull(webhookEndpoints.deletedAt),
        eq(webhookEndpoints.status, "enabled"),
        or(isNull(webhookEndpoints.leaseUntil), lte(webhookEndpoints.leaseUntil, now)),
      ),
    )
    .returning();
  // Another job holds the endpoint and schedules its next step itself; or it is gone or disabled.
  if (!endpoint) return;
  try {
    const head = await headDelivery(ctx, endpointId);
    if (head?.nextAttemptAt && head.nextAttemptAt <= now) await attempt(ctx, endpoint, head);
  } finally {
    await ctx.db
      .update(webhookEndpoints)
      .set({ leaseUntil: null })
      .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.leaseUntil, leaseUntil)));
  }
  await scheduleEndpoint(ctx, endpointId);
}

async function attempt(ctx: ServiceContext, endpoint: EndpointRow, delivery: DeliveryRow): Promise<void> {
  const [event] = await ctx.db.select().from(webhookEvents).where(eq(webhookEvents.id, delivery.eventId));
  if (!event) throw new Error(`delivery ${delivery.id} names a missing event`);
  const at = ctx.clock.now();
  const body = JSON.stringify(eventView(event));
  const url = checkWebhookUrl(endpoint.url, ctx.config.MODE);
  const outcome: PostOutcome = url.ok
    ? await postWebhook(
        url.url,
        { ...signedHeaders(await signingSecrets(ctx, endpoint, at), event.id, at, body) },
        body,
        ctx.config.WEBHOOK_TIMEOUT_MS,
      )
    : { error: `the URL ${url.reason}`, durationMs: 0 };
  await recordOutcome(ctx, endpoint, delivery, at, outcome);
}

/**
 * Records the attempt and what follows from it, in one transaction: 2xx delivers; 410 Gone disables
 * the endpoint and fails what it still had pending; anything else waits for the next step of the
 * schedule (or the receiver's longer Retry-After) and, with no step left, fails and flags the endpoint.
 */
async function recordOutcome(
  ctx: ServiceContext,
  endpoint: EndpointRow,
  delivery: DeliveryRow,
  at: Date,
  outcome: PostOutcome,
): Promise<void> {
  const attempts = delivery.attempts + 1;
  const status = outcome.statusCode;
  const delivered = status !== undefined && status >= 200 && status < 300;
  const gone = status === 410;
  const wait =
    delivered || gone
      ? undefined
      : secondsUntilRetry(attempts, retryAfterSeconds(outcome.retryAfter ?? null, at));
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    await tx.insert(webhookAttempts).values({
      id: newId("att", ctx.clock),
      deliveryId: delivery.id,
      number: attempts,
      attemptedAt: at,
      statusCode: status ?? null,
      durationMs: outcome.durationMs,
      responseExcerpt: outcome.excerpt ?? null,
      error: outcome.error ?? null,
    });
    const next = delivered
      ? { status: "delivered", deliveredAt: now, nextAttemptAt: null }
      : gone
        ? {
            status: "failed",
            failedReason: "the endpoint answered 410 Gone and was disabled",
            nextAttemptAt: null,
          }
        : wait === undefined
          ? {
              status: "failed",
              failedReason: `no answer in 2xx after ${attempts} attempts`,
              nextAttemptAt: null,
            }
          : { nextAttemptAt: new Date(now.getTime() + wait * 1000) };
    await tx
      .update(webhookDeliveries)
      .set({ ...next, attempts, updatedAt: now })
      .where(and(eq(webhookDeliveries.id, delivery.id), eq(webhookDeliveries.attempts, delivery.attempts)));
    if (delivered) {
      await tx
        .update(webhookEndpoints)
        .set({ consecutiveFailures: 0, flaggedAt: null })
        .where(eq(webhookEndpoints.id, endpoint.id));
      return;
    }
    await tx
      .update(webhookEndpoints)
      .set({
        consecutiveFailures: endpoint.consecutiveFailures + 1,
        ...(wait === undefined ? { flaggedAt: endpoint.flaggedAt ?? now } : {}),
        ...(gone
          ? { status: "disabled", disabledReason: "the endpoint answered 410 Gone", updatedAt: now }
          : {}),
      })
      .where(eq(webhookEndpoints.id, endpoint.id));
    if (gone) await failPending(tx, endpoint.id, "the endpoint was disabled by a 410 Gone", now);
  });
  if (!delivered) {
    ctx.log.warn("webhook attempt failed", {
      deliveryId: delivery.id,
      endpointId: endpoint.id,
      attempt: attempts,
      statusCode: status,
      error: outcome.error,
      nextInSeconds: wait,
    });
  }
}

/** Ends every pending delivery of an endpoint that will send no more (disabled or deleted). */
export async function failPending(
  tx: Database,
  endpointId: string,
  reason: string,
  now: Date,
): Promise<void> {
  await tx
    .update(webhookDeliveries)
    .set({ status: "failed", failedReason: reason, nextAttemptAt: null, updatedAt: now })
    .where(and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.status, "pending")));
}
