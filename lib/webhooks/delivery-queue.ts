import { and, eq, inArray, isNull } from "drizzle-orm";
import { webhookDeliveries, webhookEndpoints, webhookEvents } from "../../schema";
import type { Clock } from "../kernel/clock";
import type { Database } from "../kernel/db/database";
import { newId } from "../kernel/ids";

type EventRow = typeof webhookEvents.$inferSelect;
type EndpointRow = typeof webhookEndpoints.$inferSelect;
export type DeliveryTrigger = "event" | "replay" | "test";

/**
 * Writes the events to the outbox and queues each for its integration's endpoint, when that endpoint
 * is enabled and subscribes; answers the endpoints that got a delivery (the ones to set sending once
 * the change commits). The events' INSERT rides along the endpoints' SELECT as a data-modifying CTE
 * (PostgreSQL runs it to completion whether or not the SELECT reads it): one statement, and a second
 * only when some endpoint gets a delivery.
 */
export async function queueDeliveries(
  tx: Database,
  clock: Clock,
  events: readonly EventRow[],
): Promise<string[]> {
  const integrationIds = [...new Set(events.map((event) => event.integrationId))];
  const outbox = tx.$with("outbox").as(
    tx
      .insert(webhookEvents)
      .values([...events])
      .returning({ id: webhookEvents.id }),
  );
  const endpoints = await tx
    .with(outbox)
    .select()
    .from(webhookEndpoints)
    .where(
      and(
        inArray(webhookEndpoints.integrationId, integrationIds),
        isNull(webhookEndpoints.deletedAt),
        eq(webhookEndpoints.status, "enabled"),
      ),
    );
  const rows = events.flatMap((event) =>
    endpoints
      .filter(
        (endpoint) => endpoint.integrationId === event.integrationId && subscribes(endpoint, event.type),
      )
      .map((endpoint) => pendingDelivery(clock, endpoint, event, "event")),
  );
  if (rows.length > 0) await tx.insert(webhookDeliveries).values(rows);
  return [...new Set(rows.map((row) => row.endpointId))];
}

/** A delivery due now. The test event is only ever queued on request, never by subscription. */
export function pendingDelivery(
  clock: Clock,
  endpoint: EndpointRow,
  event: EventRow,
  trigger: DeliveryTrigger,
): typeof webhookDeliveries.$inferInsert {
  const now = clock.now();
  return {
    id: newId("dlv", clock),
    organizationId: event.organizationId,
    endpointId: endpoint.id,
    eventId: event.id,
    eventType: event.type,
    trigger,
    status: "pending",
    attempts: 0,
    nextAttemptAt: now,
    createdAt: now,
    updatedAt: now,
  };
}

function subscribes(endpoint: EndpointRow, type: string): boolean {
  if (type === "webhook.test") return false;
  return endpoint.eventTypes === null || endpoint.eventTypes.includes(type);
}
