import { and, asc, eq, gt, isNull, lte, or } from "drizzle-orm";
import { z } from "zod";
import { webhookAttempts, webhookDeliveries, webhookEndpoints, webhookEvents } from "../../schema";
import type { ServiceContext } from "../kernel/context";
import type { Database } from "../kernel/db/database";
import { newId } from "../kernel/ids";
import { defineJob } from "../kernel/jobs/definition";
import { describeError } from "../kernel/log";
import type { WebhookServices } from "./context";
import { signingSecrets } from "./endpoint-secrets";
import { checkWebhookUrl, isMockLocalReceiver } from "./endpoint-url";
import { eventView } from "./list-events";
import type { PostOutcome } from "./post";
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
export const deliverWebhooksJob = defineJob<{ endpointId: string }, WebhookServices>({
  kind: "deliver-webhooks",
  payload: z.object({ endpointId: z.string().min(1) }),
  async run(ctx, { endpointId }) {
    await sendNextDelivery(ctx, endpointId);
  },
});

/** A wake-up this close to its head's due time sends: job delays are whole seconds and clocks drift. */
const DUE_TOLERANCE_MS = 1_000;

/**
 * After a change committed: sets an endpoint sending what the change queued for it. Best effort:
 * the change stands whatever happens here, and the cron sweep sends what a lost trigger left.
 */
export async function dispatchWebhooks(ctx: ServiceContext, endpointId: string): Promise<void> {
  try {
    await scheduleEndpoint(ctx, endpointId);
  } catch (error) {
    ctx.log.warn("webhook dispatch failed; the sweep will send what it queued", describeError(error));
  }
}

/**
 * Schedules a job for the endpoint's head delivery (its first pending one) at the time it is due,
 * or at `notBefore` when later, unless a wake-up already on its way runs by then: many triggers
 * (events arriving while a retry waits) then make one job, and an endpoint never runs parallel
 * chains of jobs. The sweep, recovering a lost job, passes `force`.
 */
export async function scheduleEndpoint(
  ctx: ServiceContext,
  endpointId: string,
  options: { notBefore?: Date; force?: boolean } = {},
): Promise<boolean> {
  const head = await headDelivery(ctx, endpointId);
  if (!head) return false;
  const now = ctx.clock.now();
  const dueAt = Math.max(head.nextAttemptAt?.getTime() ?? 0, options.notBefore?.getTime() ?? 0);
  const delaySeconds = Math.max(0, Math.ceil((dueAt - now.getTime()) / 1000));
  const wakeAt = new Date(now.getTime() + delaySeconds * 1000);
  const claimed = await ctx.db
    .update(webhookEndpoints)
    .set({ nextWakeAt: wakeAt })
    .where(
      and(
        eq(webhookEndpoints.id, endpointId),
        options.force
          ? undefined
          : or(
              isNull(webhookEndpoints.nextWakeAt),
              lte(webhookEndpoints.nextWakeAt, now),
              gt(webhookEndpoints.nextWakeAt, wakeAt),
            ),
      ),
    )
    .returning({ id: webhookEndpoints.id });
  if (claimed.length === 0) return false;
  await ctx.jobs.enqueue(deliverWebhooksJob, { endpointId }, { delaySeconds });
  return true;
}

async function headDelivery(ctx: ServiceContext, endpointId: string): Promise<DeliveryRow | undefined> {
  const [head] = await ctx.db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.status, "pending")))
    .orderBy(asc(webhookDeliveries.sequence))
    .limit(1);
  return head;
}

/**
 * Takes the endpoint's lease (one sender at a time keeps its deliveries in order), attempts the head
 * delivery if it is due, gives the lease back, then schedules what comes next. The lease is given
 * back before looking for the next delivery, so one queued meanwhile is never missed. A job that
 * finds the lease taken waits it out: the holder schedules its own next step, but may have died.
 */
export async function sendNextDelivery(ctx: WebhookServices, endpointId: string): Promise<void> {
  const now = ctx.clock.now();
  const leaseUntil = new Date(now.getTime() + ctx.config.WEBHOOK_TIMEOUT_MS + LEASE_MARGIN_MS);
  const live = and(
    eq(webhookEndpoints.id, endpointId),
    isNull(webhookEndpoints.deletedAt),
    eq(webhookEndpoints.status, "enabled"),
  );
  const [endpoint] = await ctx.db
    .update(webhookEndpoints)
    .set({ leaseUntil })
    .where(and(live, or(isNull(webhookEndpoints.leaseUntil), lte(webhookEndpoints.leaseUntil, now))))
    .returning();
  if (!endpoint) {
    const [held] = await ctx.db
      .select({ leaseUntil: webhookEndpoints.leaseUntil })
      .from(webhookEndpoints)
      .where(live);
    if (held?.leaseUntil) await scheduleEndpoint(ctx, endpointId, { notBefore: held.leaseUntil });
    return;
  }
  try {
    const head = await headDelivery(ctx, endpointId);
    if (head?.nextAttemptAt && head.nextAttemptAt.getTime() <= now.getTime() + DUE_TOLERANCE_MS) {
      await attempt(ctx, endpoint, head);
    }
  } finally {
    await ctx.db
      .update(webhookEndpoints)
      .set({ leaseUntil: null })
      .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.leaseUntil, leaseUntil)));
  }
  await scheduleEndpoint(ctx, endpointId);
}

async function attempt(ctx: WebhookServices, endpoint: EndpointRow, delivery: DeliveryRow): Promise<void> {
  const [event] = await ctx.db.select().from(webhookEvents).where(eq(webhookEvents.id, delivery.eventId));
  if (!event) throw new Error(`delivery ${delivery.id} names a missing event`);
  const at = ctx.clock.now();
  const body = JSON.stringify(eventView(event));
  const url = checkWebhookUrl(endpoint.url, ctx.config.MODE);
  const secrets = await signingSecrets(ctx, endpoint, at).catch((error: unknown) => {
    // A secret that no longer opens (the key changed) fails the attempt like a refused connection
    // would, so the schedule runs out, the endpoint is flagged, and nothing queues behind it for ever.
    ctx.log.error("webhook secret could not be opened", { endpointId: endpoint.id, ...describeError(error) });
    return undefined;
  });
  const outcome: PostOutcome = !url.ok
    ? { error: `the URL ${url.reason}`, durationMs: 0 }
    : !secrets
      ? { error: "the signing secret could not be opened (service configuration)", durationMs: 0 }
      : await ctx.providers.webhookPost({
          url: url.url,
          headers: { ...signedHeaders(secrets, event.id, at, body) },
          body,
          timeoutMs: ctx.config.WEBHOOK_TIMEOUT_MS,
          checkAddresses: !isMockLocalReceiver(new URL(url.url).hostname, ctx.config.MODE),
        });
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
      ? { status: "delivered" as const, deliveredAt: now, nextAttemptAt: null }
      : gone
        ? {
            status: "failed" as const,
            failedReason: "the endpoint answered 410 Gone and was disabled",
            nextAttemptAt: null,
          }
        : wait === undefined
          ? {
              status: "failed" as const,
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
      ...(outcome.cause ? { cause: outcome.cause } : {}),
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
