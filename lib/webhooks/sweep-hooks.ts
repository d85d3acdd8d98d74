import { and, asc, desc, eq, gt, inArray, isNotNull, isNull, lt, lte, notExists, or } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { webhookDeliveries, webhookEndpoints } from "../../schema";
import type { ServiceContext } from "../kernel/context";
import type { SweepHook } from "../kernel/sweep";
import { scheduleEndpoint } from "./deliver";
import { type EndpointView, endpointView } from "./endpoints";

/** A due delivery still pending this long after its time has lost its job. */
const LOST_AFTER_MS = 60_000;
const SWEEP_BATCH = 100;

/**
 * A lost job message delays a webhook, never drops it: endpoints whose head delivery (the first
 * pending one: what waits behind it is not late) is overdue by more than a minute, with no sender
 * holding them, are scheduled again, the longest overdue first. Deliveries still pending on an
 * endpoint that was deleted or disabled meanwhile (a change that committed beside the deletion)
 * fail, as the deletion would have failed them.
 */
export const recoverWebhookDeliveries: SweepHook = {
  name: "recover-webhook-deliveries",
  async run(ctx) {
    const now = ctx.clock.now();
    const earlier = alias(webhookDeliveries, "earlier");
    const overdue = await ctx.db
      .select({ endpointId: webhookDeliveries.endpointId })
      .from(webhookDeliveries)
      .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
      .where(
        and(
          eq(webhookDeliveries.status, "pending"),
          lt(webhookDeliveries.nextAttemptAt, new Date(now.getTime() - LOST_AFTER_MS)),
          eq(webhookEndpoints.status, "enabled"),
          isNull(webhookEndpoints.deletedAt),
          or(isNull(webhookEndpoints.leaseUntil), lte(webhookEndpoints.leaseUntil, now)),
          notExists(
            ctx.db
              .select({ id: earlier.id })
              .from(earlier)
              .where(
                and(
                  eq(earlier.endpointId, webhookDeliveries.endpointId),
                  eq(earlier.status, "pending"),
                  lt(earlier.sequence, webhookDeliveries.sequence),
                ),
              ),
          ),
        ),
      )
      .orderBy(asc(webhookDeliveries.nextAttemptAt))
      .limit(SWEEP_BATCH);
    for (const { endpointId } of overdue) await scheduleEndpoint(ctx, endpointId, { force: true });
    const orphaned = await ctx.db
      .update(webhookDeliveries)
      .set({
        status: "failed",
        failedReason: "the endpoint was deleted or disabled",
        nextAttemptAt: null,
        updatedAt: now,
      })
      .where(
        and(
          eq(webhookDeliveries.status, "pending"),
          inArray(
            webhookDeliveries.endpointId,
            ctx.db
              .select({ id: webhookEndpoints.id })
              .from(webhookEndpoints)
              .where(or(isNotNull(webhookEndpoints.deletedAt), eq(webhookEndpoints.status, "disabled"))),
          ),
        ),
      )
      .returning({ id: webhookDeliveries.id });
    return overdue.length + orphaned.length;
  },
};

export interface FailingEndpointView extends EndpointView {
  organizationId: string;
  integrationId: string;
}

/**
 * For the operator: live endpoints that failed their last attempt, were flagged (a delivery ran out
 * of attempts) or were disabled by a 410, most failures first.
 */
export async function failingEndpoints(ctx: ServiceContext): Promise<FailingEndpointView[]> {
  const rows = await ctx.db
    .select()
    .from(webhookEndpoints)
    .where(
      and(
        isNull(webhookEndpoints.deletedAt),
        or(
          gt(webhookEndpoints.consecutiveFailures, 0),
          isNotNull(webhookEndpoints.flaggedAt),
          eq(webhookEndpoints.status, "disabled"),
        ),
      ),
    )
    .orderBy(desc(webhookEndpoints.consecutiveFailures), asc(webhookEndpoints.id))
    .limit(500);
  const now = ctx.clock.now();
  return rows.map((row) => ({
    ...endpointView(row, now),
    organizationId: row.organizationId,
    integrationId: row.integrationId,
  }));
}
