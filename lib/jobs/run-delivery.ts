import { eq, sql } from "drizzle-orm";
import { jobDeliveries } from "../../schema";
import type { ServiceContext } from "../context";
import type { AnyJobDefinition } from "./catalog";

export type DeliveryOutcome =
  | { outcome: "completed" }
  | { outcome: "duplicate" }
  | { outcome: "unknown_kind" }
  | { outcome: "invalid_payload"; problems: string[] };

/**
 * Runs one signed job delivery. A message id that already completed is acknowledged without
 * running again; any thrown error leaves it unrecorded, so QStash's retry runs it again.
 */
export async function runJobDelivery(
  ctx: ServiceContext,
  catalog: readonly AnyJobDefinition[],
  delivery: { kind: string; rawBody: string; messageId: string; retried: number },
): Promise<DeliveryOutcome> {
  const job = catalog.find((candidate) => candidate.kind === delivery.kind);
  if (!job) return { outcome: "unknown_kind" };

  const done = await ctx.db
    .select({ messageId: jobDeliveries.messageId })
    .from(jobDeliveries)
    .where(eq(jobDeliveries.messageId, delivery.messageId));
  if (done.length > 0) return { outcome: "duplicate" };

  const payload = job.payload.safeParse(parseJson(delivery.rawBody));
  if (!payload.success) {
    return {
      outcome: "invalid_payload",
      problems: payload.error.issues.map((issue) => `${issue.path.join(".") || "body"}: ${issue.message}`),
    };
  }

  await job.run(ctx, payload.data, { messageId: delivery.messageId, retried: delivery.retried });
  await ctx.db
    .insert(jobDeliveries)
    .values({
      messageId: delivery.messageId,
      kind: delivery.kind,
      attempts: delivery.retried + 1,
      completedAt: ctx.clock.now(),
    })
    .onConflictDoUpdate({
      target: jobDeliveries.messageId,
      set: { attempts: sql`greatest(${jobDeliveries.attempts}, excluded.attempts)` },
    });
  return { outcome: "completed" };
}

function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}
