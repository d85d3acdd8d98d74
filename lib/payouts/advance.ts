import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { brebPayouts } from "../../schema";
import type { ServiceContext } from "../kernel/context";
import { defineJob } from "../kernel/jobs/definition";
import { ProviderFailure } from "../kernel/provider-failure";
import { applyPayoutReport } from "./apply-report";
import type { PayoutServices } from "./breb-provider";
import { returnFee } from "./fee-return";
import { noteMove, providerRequestOf } from "./payout-records";
import type { PayoutRow } from "./payout-view";
import { hasWork, PAYOUT_POLL_SECONDS } from "./payout-work";

/**
 * Carries a confirmed payout to the provider and follows it to a final state: submits it (the
 * provider takes one payout per id, so a retried submit is harmless), then asks its status every
 * PAYOUT_POLL_SECONDS until completed or refunded, so a lost callback delays nothing for long. A
 * refunded payout whose fee the service owes is looked at until the fee's return is mined.
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
  if (!payout || !hasWork(payout)) return;
  if (payout.status === "refunded") {
    // With no one to sign the return, looking again changes nothing: the operator is told past the deadline.
    if ((await returnFee(ctx, payout)) === "waiting") await schedulePayout(ctx, payoutId);
    return;
  }
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
 * The next look at a payout, unless it has nothing left to do: at the next PAYOUT_POLL_SECONDS
 * boundary of the clock, keyed by that boundary. Every job for a payout (its own loop, a confirm's,
 * the sweep's) lands on the same boundaries, so extra jobs merge into one chain instead of polling
 * side by side.
 */
export async function schedulePayout(ctx: ServiceContext, payoutId: string): Promise<void> {
  const [payout] = await ctx.db.select().from(brebPayouts).where(eq(brebPayouts.id, payoutId));
  if (!payout || !hasWork(payout)) return;
  const nowSeconds = ctx.clock.now().getTime() / 1000;
  const boundary = (Math.floor(nowSeconds / PAYOUT_POLL_SECONDS) + 1) * PAYOUT_POLL_SECONDS;
  await ctx.jobs.enqueue(
    advancePayoutJob,
    { payoutId },
    { delaySeconds: Math.ceil(boundary - nowSeconds), dedupeId: `payout-${payoutId}-${boundary}` },
  );
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
