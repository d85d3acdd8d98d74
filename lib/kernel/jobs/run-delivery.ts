import { eq } from "drizzle-orm";
import { jobDeliveries } from "../../../schema";
import type { ServiceContext } from "../context";
import type { AnyJobDefinition } from "./definition";

export type DeliveryOutcome =
  | { outcome: "completed" }
  | { outcome: "duplicate" }
  | { outcome: "unknown_kind" }
  | { outcome: "invalid_payload"; problems: Array<{ path: string; message: string }> };

/**
 * Runs one signed job delivery at most once. The delivery is claimed in the database before the
 * job runs (an insert on its signed id): the same signed request arriving again, even while the
 * first still runs, is acknowledged as a duplicate without running. A run that throws stays
 * claimed and is answered non-2xx, so QStash retries, with a freshly signed delivery that runs.
 */
export async function runJobDelivery<Services extends ServiceContext>(
  ctx: Services,
  catalog: readonly AnyJobDefinition<Services>[],
  delivery: { kind: string; rawBody: string; deliveryId: string; messageId?: string; retried: number },
): Promise<DeliveryOutcome> {
  const job = catalog.find((candidate) => candidate.kind === delivery.kind);
  if (!job) return { outcome: "unknown_kind" };
  const payload = job.payload.safeParse(parseJson(delivery.rawBody));
  if (!payload.success) {
    return {
      outcome: "invalid_payload",
      problems: payload.error.issues.map((issue) => ({
        path: ["body", ...issue.path.map(String)].join("."),
        message: issue.message,
      })),
    };
  }

  const [claimed] = await ctx.db
    .insert(jobDeliveries)
    .values({
      deliveryId: delivery.deliveryId,
      messageId: delivery.messageId ?? null,
      kind: delivery.kind,
      retried: delivery.retried,
      claimedAt: ctx.clock.now(),
    })
    .onConflictDoNothing()
    .returning({ deliveryId: jobDeliveries.deliveryId });
  if (!claimed) return { outcome: "duplicate" };

  try {
    await job.run(ctx, payload.data, {
      messageId: delivery.messageId ?? delivery.deliveryId,
      retried: delivery.retried,
    });
  } catch (error) {
    await ctx.db
      .update(jobDeliveries)
      .set({ failedAt: ctx.clock.now() })
      .where(eq(jobDeliveries.deliveryId, delivery.deliveryId))
      .catch(() => undefined);
    throw error;
  }
  await ctx.db
    .update(jobDeliveries)
    .set({ completedAt: ctx.clock.now() })
    .where(eq(jobDeliveries.deliveryId, delivery.deliveryId));
  return { outcome: "completed" };
}

function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}
