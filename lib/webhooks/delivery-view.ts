import type { webhookAttempts, webhookDeliveries } from "../../schema";
import type { DeliveryTrigger } from "./delivery-queue";

interface AttemptView {
  number: number;
  attemptedAt: string;
  statusCode: number | null;
  durationMs: number;
  responseExcerpt: string | null;
  error: string | null;
}

export interface DeliveryView {
  id: string;
  eventId: string;
  eventType: string;
  endpointId: string;
  trigger: DeliveryTrigger;
  status: "pending" | "delivered" | "failed";
  attempts: number;
  nextAttemptAt: string | null;
  deliveredAt: string | null;
  failedReason: string | null;
  createdAt: string;
  updatedAt: string;
  attemptLog: AttemptView[];
}

export function deliveryView(
  row: typeof webhookDeliveries.$inferSelect,
  attempts: ReadonlyArray<typeof webhookAttempts.$inferSelect>,
): DeliveryView {
  return {
    id: row.id,
    eventId: row.eventId,
    eventType: row.eventType,
    endpointId: row.endpointId,
    trigger: row.trigger as DeliveryTrigger,
    status: row.status as DeliveryView["status"],
    attempts: row.attempts,
    nextAttemptAt: row.nextAttemptAt?.toISOString() ?? null,
    deliveredAt: row.deliveredAt?.toISOString() ?? null,
    failedReason: row.failedReason,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    attemptLog: [...attempts]
      .sort((a, b) => a.number - b.number)
      .map((attempt) => ({
        number: attempt.number,
        attemptedAt: attempt.attemptedAt.toISOString(),
        statusCode: attempt.statusCode,
        durationMs: attempt.durationMs,
        responseExcerpt: attempt.responseExcerpt,
        error: attempt.error,
      })),
  };
}
