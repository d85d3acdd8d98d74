import { and, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import { brebPayouts } from "../../schema";
import type { ServiceContext } from "../kernel/context";
import { defineJob } from "../kernel/jobs/definition";
import { ProviderFailure } from "../kernel/provider-failure";
import type { BrebPayoutReport, BrebPayoutState, PayoutServices } from "./breb-provider";
import { noteMove, providerRequestOf } from "./payout-records";
import type { PayoutRow, PayoutStatus } from "./payout-view";

/** Payouts the provider still has to finish, and how often one is looked at while it does. */
export const IN_FLIGHT: PayoutStatus[] = ["deposit_confirmed", "processing", "failed"];
export const PAYOUT_POLL_SECONDS = 10;

/**
 * Carries a confirmed payout to the provider and follows it to a final state: submits it (the
 * provider takes one payout per id, so a retried submit is harmless), then asks its status every
 * PAYOUT_POLL_SECONDS until completed or refunded, so a lost callback delays nothing for long.
 */
export const advancePayoutJob = defineJob<{ payoutId: string }, PayoutServices>({
  kind: "payout.advance",
  payload: z.object({ payoutId: z.string().min(1) }),
  async run(ctx, { payoutId }) {
    await advancePayout(ctx, payoutId);
  },
});

async function advancePayout(ctx: PayoutServices, payoutId: string): Promise<void> {
  const [payout] = await ctx.db.select().from(brebPayouts).where(eq(brebPayouts.id, payoutId));
  if (!payout || !IN_FLIGHT.includes(payout.status as PayoutStatus)) return;
  const provider = ctx.providers.payouts.provider;
  try {
    if (provider) {
      const report =
        payout.status === "deposit_confirmed"
          ? await provider.submit(providerRequestOf(payout))
          : await provider.status(payout.id);
      await applyPayoutReport(ctx, report);
    }
  } catch (error) {
    if (!(error instanceof ProviderFailure)) throw error;
    if (payout.status === "deposit_confirmed" && error.kind === "no_route") {
      // The provider answered that it will not take this payout: retrying changes nothing, and the
      // deposit it holds must go back to the user.
      await refuseSubmission(ctx, payout, error.message);
      return;
    }
    ctx.log.warn("payout provider did not answer; trying again", { payoutId, reason: error.message });
  }
  await schedulePayout(ctx, payoutId);
}

/**
 * The next look at a payout, unless it is final: at the next PAYOUT_POLL_SECONDS boundary of the
 * clock, keyed by that boundary. Every job for a payout (its own loop, a confirm's, the sweep's)
 * lands on the same boundaries, so extra jobs merge into one chain instead of polling side by side.
 */
export async function schedulePayout(ctx: ServiceContext, payoutId: string): Promise<void> {
  const [payout] = await ctx.db
    .select({ status: brebPayouts.status })
    .from(brebPayouts)
    .where(eq(brebPayouts.id, payoutId));
  if (!payout || !IN_FLIGHT.includes(payout.status as PayoutStatus)) return;
  const nowSeconds = ctx.clock.now().getTime() / 1000;
  const boundary = (Math.floor(nowSeconds / PAYOUT_POLL_SECONDS) + 1) * PAYOUT_POLL_SECONDS;
  await ctx.jobs.enqueue(
    advancePayoutJob,
    { payoutId },
    { delaySeconds: Math.ceil(boundary - nowSeconds), dedupeId: `payout-${payoutId}-${boundary}` },
  );
}

/** Where a provider state sits on the way: a report only ever moves a payout forward. */
const PATH: Record<BrebPayoutState, PayoutStatus[]> = {
  processing: ["processing"],
  completed: ["processing", "completed"],
  failed: ["processing", "failed"],
  refunded: ["processing", "failed", "refunded"],
};

/**
 * A provider report, from a callback or a poll: the payout moves through each state between where it
 * is and where the report says (compare-and-set, a timeline entry and an event for each), unless it
 * is there already or beyond, or the report is older than the one it holds. Duplicates and late,
 * out-of-order reports change nothing.
 */
export async function applyPayoutReport(
  ctx: ServiceContext,
  report: BrebPayoutReport,
): Promise<{ applied: boolean }> {
  const reportedAt = new Date(report.updatedAt);
  const moved = await ctx.db.transaction(async (tx) => {
    const [payout] = await tx
      .select()
      .from(brebPayouts)
      .where(eq(brebPayouts.id, report.payoutId))
      .for("update");
    if (!payout || !IN_FLIGHT.includes(payout.status as PayoutStatus)) return undefined;
    if (payout.providerUpdatedAt && !(reportedAt >= payout.providerUpdatedAt)) return undefined;
    const path = PATH[report.status];
    const from = path.indexOf(payout.status as PayoutStatus);
    // Off the report's path and past its start (a failed payout, reported processing or completed):
    // the report is behind the payout, whatever its time says.
    if (from === -1 && payout.status !== "deposit_confirmed") return undefined;
    const steps = path.slice(from + 1);
    if (steps.length === 0) return undefined;
    let current: PayoutRow = payout;
    for (const status of steps) {
      const [row] = await tx
        .update(brebPayouts)
        .set({
          status,
          providerPayoutId: report.providerPayoutId,
          providerUpdatedAt: Number.isNaN(reportedAt.getTime()) ? null : reportedAt,
          ...(status === "completed" ? { brebTransactionId: report.brebTransactionId ?? null } : {}),
          ...(status === "failed"
            ? { failureReason: report.failureReason ?? "the provider reported a failure" }
            : {}),
          // In lower case as the provider may not send it, so a lookup by hash finds it.
          ...(status === "refunded" ? { refundTxHash: report.refundTxHash?.toLowerCase() ?? null } : {}),
          updatedAt: ctx.clock.now(),
        })
        .where(and(eq(brebPayouts.id, current.id), inArray(brebPayouts.status, [current.status])))
        .returning();
      if (!row) throw new Error(`payout ${current.id} moved under its lock`);
      await noteMove(ctx, tx, row, {
        status,
        detail:
          status === "processing"
            ? `provider payout ${report.providerPayoutId}`
            : status === "completed"
              ? `BRE-B transaction ${report.brebTransactionId ?? "(not given)"}`
              : status === "failed"
                ? (report.failureReason ?? null)
                : null,
        txHash: status === "refunded" ? (report.refundTxHash?.toLowerCase() ?? null) : null,
      });
      current = row;
    }
    return current;
  });
  return { applied: moved !== undefined };
}

/** A payout the provider refused outright: refund_required, for the operator, with the reason. */
async function refuseSubmission(ctx: PayoutServices, payout: PayoutRow, reason: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(brebPayouts)
      .set({ status: "refund_required", failureReason: reason, updatedAt: ctx.clock.now() })
      .where(and(eq(brebPayouts.id, payout.id), eq(brebPayouts.status, "deposit_confirmed")))
      .returning();
    if (row) await noteMove(ctx, tx, row, { status: "refund_required", detail: reason });
  });
  ctx.log.error("payout refused by the provider: refund required", { payoutId: payout.id });
}
