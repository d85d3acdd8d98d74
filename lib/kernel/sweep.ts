import { lt } from "drizzle-orm";
import { jobDeliveries } from "../../schema";
import type { ServiceContext } from "./context";
import { describeError } from "./log";

/**
 * The cron trigger's work: find what should have happened and did not (a lost job message, an
 * overdue order, a webhook to retry) and set it going again. Each hook is idempotent and bounded.
 */
export interface SweepHook<Services extends ServiceContext = ServiceContext> {
  name: string;
  /** Returns how many items it acted on. */
  run(ctx: Services): Promise<number>;
}

export interface SweepReport {
  hook: string;
  acted?: number;
  failed?: string;
}

export async function runSweep<Services extends ServiceContext>(
  ctx: Services,
  hooks: readonly SweepHook<Services>[],
): Promise<SweepReport[]> {
  const reports: SweepReport[] = [];
  for (const hook of hooks) {
    try {
      reports.push({ hook: hook.name, acted: await hook.run(ctx) });
    } catch (error) {
      ctx.log.error("sweep hook failed", { hook: hook.name, ...describeError(error) });
      reports.push({ hook: hook.name, failed: error instanceof Error ? error.message : String(error) });
    }
  }
  await ctx.afterWork.run(ctx);
  ctx.log.info("sweep finished", { reports });
  return reports;
}

/**
 * Delivery claims only guard against a signed delivery running twice, and a signature expires after
 * five minutes: a week is plenty.
 */
export const JOB_RECEIPT_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

export const pruneJobReceipts: SweepHook = {
  name: "prune-job-receipts",
  async run(ctx) {
    const cutoff = new Date(ctx.clock.now().getTime() - JOB_RECEIPT_RETENTION_MS);
    const deleted = await ctx.db
      .delete(jobDeliveries)
      .where(lt(jobDeliveries.claimedAt, cutoff))
      .returning({ id: jobDeliveries.deliveryId });
    return deleted.length;
  },
};
