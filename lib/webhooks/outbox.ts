import type { webhookEvents } from "../../schema";
import type { ServiceContext } from "../kernel/context";
import type { Database } from "../kernel/db/database";
import { newId } from "../kernel/ids";
import { dispatchWebhooks } from "./deliver";
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
 * The one way events leave: written to the outbox with a pending delivery for each endpoint that
 * subscribes, in the transaction that makes the change (never after it), so an event and its
 * deliveries exist exactly when the change committed. When the unit of work ends (its request, job
 * or sweep), the endpoints that got a delivery are set sending; a rolled-back change left nothing to send,
 * and the cron sweep sends what a lost trigger left.
 */
export async function recordEvents(
  ctx: Pick<ServiceContext, "clock" | "afterWork">,
  tx: Database,
  events: OutboxEvent[],
): Promise<Array<typeof webhookEvents.$inferSelect>> {
  if (events.length === 0) return [];
  const createdAt = ctx.clock.now();
  const rows = events.map((event) => ({ id: newId("evt", ctx.clock), ...event, createdAt }));
  // Only the endpoints that got a delivery are set sending: no endpoint, no work after the change.
  for (const endpointId of await queueDeliveries(tx, ctx.clock, rows)) {
    ctx.afterWork.add(`webhooks:${endpointId}`, (done) => dispatchWebhooks(done, endpointId));
  }
  return rows;
}
