import { webhookEvents } from "../../schema";
import type { Clock } from "../clock";
import type { Database } from "../db/database";
import { newId } from "../ids";
import type { EventType } from "./event-types";

export interface OutboxEvent {
  organizationId: string;
  type: EventType;
  subjectId: string;
  data: Record<string, unknown>;
}

/**
 * Writes events to the outbox. Call it with the transaction that makes the change, never after
 * it: an event then exists exactly when its change committed.
 */
export async function recordEvents(tx: Database, clock: Clock, events: OutboxEvent[]): Promise<void> {
  if (events.length === 0) return;
  const createdAt = clock.now();
  await tx
    .insert(webhookEvents)
    .values(events.map((event) => ({ id: newId("evt", clock), ...event, createdAt })));
}
