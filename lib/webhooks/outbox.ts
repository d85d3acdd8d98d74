import { webhookEvents } from "../../schema";
import type { Clock } from "../kernel/clock";
import type { Database } from "../kernel/db/database";
import { newId } from "../kernel/ids";
import { queueDeliveries } from "./delivery-queue";
import type { EventType } from "./event-types";

export interface OutboxEvent {
  organizationId: string;
  /** The integration whose resource changed: its endpoint, if it has one, is sent the event. */
  integrationId: string;
  type: EventType;
  subjectId: string;
  data: Record<string, unknown>;
}

/**
 * Writes events to the outbox, with a pending delivery for each endpoint that subscribes to them.
 * Call it with the transaction that makes the change, never after it: an event and its deliveries
 * then exist exactly when the change committed. Once it has, `dispatchWebhooks` sets them going.
 */
export async function recordEvents(
  tx: Database,
  clock: Clock,
  events: OutboxEvent[],
): Promise<Array<typeof webhookEvents.$inferSelect>> {
  if (events.length === 0) return [];
  const createdAt = clock.now();
  const rows = await tx
    .insert(webhookEvents)
    .values(events.map((event) => ({ id: newId("evt", clock), ...event, createdAt })))
    .returning();
  await queueDeliveries(tx, clock, rows);
  return rows;
}
