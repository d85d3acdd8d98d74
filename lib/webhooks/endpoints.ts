import { and, eq, isNull } from "drizzle-orm";
import { webhookDeliveries, webhookEndpoints } from "../../schema";
import { auditFields, recordAudit } from "../audit/record";
import type { ServiceContext } from "../kernel/context";
import type { Database } from "../kernel/db/database";
import { isUniqueViolation } from "../kernel/db/errors";
import { ApiError } from "../kernel/errors/api-error";
import { newId } from "../kernel/ids";
import { getIntegration } from "../tenancy/integrations";
import { failPending, scheduleEndpoint } from "./deliver";
import { pendingDelivery } from "./delivery-queue";
import { type DeliveryView, deliveryView } from "./delivery-view";
import { ROTATION_OVERLAP_MS, sealFor, stillSigning } from "./endpoint-secrets";
import { checkWebhookUrl } from "./endpoint-url";
import type { SubscribableEventType } from "./event-types";
import { type EventView, eventView } from "./list-events";
import { recordEvents } from "./outbox";
import { maskedSecret, newSigningSecret, secretHint } from "./signing-secret";

type EndpointRow = typeof webhookEndpoints.$inferSelect;

/** Whose endpoint: a partner's key names its integration; the admin API names it in the path. */
export interface EndpointScope {
  organizationId: string;
  integrationId: string;
}

export interface EndpointView {
  id: string;
  url: string;
  eventTypes: string[] | null;
  status: "enabled" | "disabled";
  disabledReason: string | null;
  secret: string;
  previousSecretValidUntil: string | null;
  consecutiveFailures: number;
  flaggedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** What the audit log shows of an endpoint: never its secret. */
const AUDITED_FIELDS = [
  "url",
  "eventTypes",
  "status",
  "disabledReason",
] as const satisfies readonly (keyof EndpointRow)[];

/** The scope of an integration the operator names (INTEGRATION_NOT_FOUND when there is none). */
export async function integrationScope(ctx: ServiceContext, integrationId: string): Promise<EndpointScope> {
  const integration = await getIntegration(ctx, integrationId);
  return { organizationId: integration.organizationId, integrationId: integration.id };
}

/** The endpoint as every answer shows it: the secret masked. */
export function endpointView(row: EndpointRow, now: Date): EndpointView {
  const overlapping = stillSigning(row, now)
    .map((previous) => previous.until)
    .sort()
    .at(-1);
  return {
    id: row.id,
    url: row.url,
    eventTypes: row.eventTypes,
    status: row.status === "disabled" ? "disabled" : "enabled",
    disabledReason: row.disabledReason,
    secret: maskedSecret(row.secretHint),
    previousSecretValidUntil: overlapping ? new Date(overlapping).toISOString() : null,
    consecutiveFailures: row.consecutiveFailures,
    flaggedAt: row.flaggedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/**
 * Sets the integration's endpoint: creates it with a new signing secret (shown in this answer only),
 * or replaces its URL and event types, keeping the secret. Either way it is enabled again and its
 * failure count starts afresh. Omitted `eventTypes` means every type.
 */
export async function putEndpoint(
  ctx: ServiceContext,
  scope: EndpointScope,
  input: { url: string; eventTypes?: readonly SubscribableEventType[] | undefined },
): Promise<{ endpoint: EndpointView; secret?: string }> {
  const checked = checkWebhookUrl(input.url, ctx.config.MODE);
  if (!checked.ok) {
    const problem = `the webhook URL ${checked.reason}`;
    throw new ApiError("INVALID_WEBHOOK_URL", {
      detail: `(${problem})`,
      problems: [{ field: "body.url", code: "INVALID_WEBHOOK_URL", problem }],
    });
  }
  const now = ctx.clock.now();
  const settings = {
    url: checked.url,
    eventTypes: input.eventTypes ? [...new Set(input.eventTypes)] : null,
    status: "enabled" as const,
    disabledReason: null,
    consecutiveFailures: 0,
    flaggedAt: null,
    updatedAt: now,
  };
  const audited = (tx: Database, before: EndpointRow | undefined, after: EndpointRow) =>
    recordAudit(ctx, tx, {
      organizationId: scope.organizationId,
      action: "webhook_endpoint.set",
      targetId: after.id,
      before: before ? auditFields(before, AUDITED_FIELDS) : null,
      after: auditFields(after, AUDITED_FIELDS),
    });
  for (let tries = 0; tries < 2; tries++) {
    const updated = await ctx.db.transaction(async (tx) => {
      const [before] = await tx.select().from(webhookEndpoints).where(liveEndpointOf(scope)).for("update");
      if (!before) return undefined;
      const [row] = await tx.update(webhookEndpoints).set(settings).where(liveEndpointOf(scope)).returning();
      if (row) await audited(tx, before, row);
      return row;
    });
    if (updated) return { endpoint: endpointView(updated, now) };
    const id = newId("wep", ctx.clock);
    const secret = newSigningSecret();
    try {
      const created = await ctx.db.transaction(async (tx) => {
        const [row] = await tx
          .insert(webhookEndpoints)
          .values({
            id,
            organizationId: scope.organizationId,
            integrationId: scope.integrationId,
            ...settings,
            secretCiphertext: await sealFor(ctx, id, secret),
            secretHint: secretHint(secret),
            createdAt: now,
          })
          .returning();
        if (row) await audited(tx, undefined, row);
        return row;
      });
      if (created) return { endpoint: endpointView(created, now), secret };
    } catch (error) {
      // A concurrent PUT created it first: update that one instead.
      if (!isUniqueViolation(error)) throw error;
    }
  }
  throw new Error("the webhook endpoint could be neither created nor updated");
}

export async function getEndpoint(ctx: ServiceContext, scope: EndpointScope): Promise<EndpointView> {
  return endpointView(await liveEndpoint(ctx.db, scope), ctx.clock.now());
}

/** Deletes the endpoint: nothing more is sent, and what was pending fails. Its deliveries stay listed. */
export async function deleteEndpoint(ctx: ServiceContext, scope: EndpointScope): Promise<{ id: string }> {
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const endpoint = await liveEndpoint(tx, scope, { lock: true });
    await tx
      .update(webhookEndpoints)
      .set({ deletedAt: now, updatedAt: now, leaseUntil: null })
      .where(eq(webhookEndpoints.id, endpoint.id));
    await failPending(tx, endpoint.id, "the endpoint was deleted", now);
    await recordAudit(ctx, tx, {
      organizationId: scope.organizationId,
      action: "webhook_endpoint.deleted",
      targetId: endpoint.id,
      before: auditFields(endpoint, AUDITED_FIELDS),
    });
    return { id: endpoint.id };
  });
}

/**
 * A new signing secret, shown in this answer only. The previous one keeps signing beside it for 24
 * hours (both signatures in `webhook-signature`), so receivers can switch without losing a delivery.
 * A second rotation inside that window keeps every earlier secret to its own end: a partner whose
 * first rotation answer was lost still verifies with the secret it holds.
 */
export async function rotateSecret(
  ctx: ServiceContext,
  scope: EndpointScope,
): Promise<{ endpoint: EndpointView; secret: string }> {
  const now = ctx.clock.now();
  const secret = newSigningSecret();
  const rotated = await ctx.db.transaction(async (tx) => {
    const endpoint = await liveEndpoint(tx, scope, { lock: true });
    const [row] = await tx
      .update(webhookEndpoints)
      .set({
        secretCiphertext: await sealFor(ctx, endpoint.id, secret),
        secretHint: secretHint(secret),
        previousSecrets: [
          ...stillSigning(endpoint, now),
          {
            ciphertext: endpoint.secretCiphertext,
            until: new Date(now.getTime() + ROTATION_OVERLAP_MS).toISOString(),
          },
        ],
        updatedAt: now,
      })
      .where(eq(webhookEndpoints.id, endpoint.id))
      .returning();
    // Which secret is never said: only its visible end, before and after.
    await recordAudit(ctx, tx, {
      organizationId: scope.organizationId,
      action: "webhook_endpoint.secret_rotated",
      targetId: endpoint.id,
      before: { secretHint: endpoint.secretHint },
      after: { secretHint: row?.secretHint ?? null },
    });
    return row ?? endpoint;
  });
  return { endpoint: endpointView(rotated, now), secret };
}

/** Records a `webhook.test` event and sends it to the endpoint, whatever types it subscribes to. */
export async function sendTestEvent(
  ctx: ServiceContext,
  scope: EndpointScope,
): Promise<{ event: EventView; delivery: DeliveryView }> {
  const { event, delivery } = await ctx.db.transaction(async (tx) => {
    const endpoint = await enabledEndpoint(tx, scope);
    const [recorded] = await recordEvents(ctx, tx, [
      {
        organizationId: scope.organizationId,
        integrationId: scope.integrationId,
        type: "webhook.test",
        subjectId: endpoint.id,
        data: {
          endpointId: endpoint.id,
          message: "A test event: your endpoint receives and verifies webhooks.",
        },
      },
    ]);
    if (!recorded) throw new Error("the test event was not recorded");
    const [queued] = await tx
      .insert(webhookDeliveries)
      .values(pendingDelivery(ctx.clock, endpoint, recorded, "test"))
      .returning();
    if (!queued) throw new Error("the test delivery was not queued");
    return { event: recorded, delivery: queued };
  });
  await scheduleEndpoint(ctx, delivery.endpointId);
  return { event: eventView(event), delivery: deliveryView(delivery, []) };
}

/** The scope's live endpoint, enabled: what a test or a replay is sent to. */
export async function enabledEndpoint(db: Database, scope: EndpointScope): Promise<EndpointRow> {
  const endpoint = await liveEndpoint(db, scope, { lock: true });
  if (endpoint.status !== "enabled") {
    throw new ApiError("WEBHOOK_ENDPOINT_DISABLED", { detail: `(${endpoint.disabledReason ?? "disabled"})` });
  }
  return endpoint;
}

async function liveEndpoint(
  db: Database,
  scope: EndpointScope,
  options: { lock?: boolean } = {},
): Promise<EndpointRow> {
  const query = db.select().from(webhookEndpoints).where(liveEndpointOf(scope));
  const [endpoint] = options.lock ? await query.for("update") : await query;
  if (!endpoint) throw new ApiError("WEBHOOK_ENDPOINT_NOT_FOUND");
  return endpoint;
}

function liveEndpointOf(scope: EndpointScope) {
  return and(
    eq(webhookEndpoints.organizationId, scope.organizationId),
    eq(webhookEndpoints.integrationId, scope.integrationId),
    isNull(webhookEndpoints.deletedAt),
  );
}
