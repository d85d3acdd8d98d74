import { and, eq, lt, notExists, type SQL, sql } from "drizzle-orm";
import { brebPayoutEvents, brebPayouts, type PayoutNote } from "../../schema";
import type { SweepHook } from "../kernel/sweep";
import { schedulePayout } from "./advance";
import { refundCutoff } from "./attention";
import type { PayoutServices } from "./breb-provider";
import { noteMove, notePayout } from "./payout-records";
import { OWES_FEE, PAYOUT_POLL_SECONDS, withWork } from "./payout-work";

const SWEEP_BATCH = 100;

/** Awaiting payouts past their deadline expire: no deposit is expected any more. */
export const expireUnpaidPayouts: SweepHook = {
  name: "expire-unpaid-payouts",
  async run(ctx) {
    const now = ctx.clock.now();
    const due = await ctx.db
      .select()
      .from(brebPayouts)
      .where(and(eq(brebPayouts.status, "awaiting_deposit"), lt(brebPayouts.depositDeadline, now)))
      .limit(SWEEP_BATCH);
    let expiredCount = 0;
    for (const payout of due) {
      const expired = await ctx.db.transaction(async (tx) => {
        const [row] = await tx
          .update(brebPayouts)
          .set({ status: "expired", updatedAt: now })
          .where(and(eq(brebPayouts.id, payout.id), eq(brebPayouts.status, "awaiting_deposit")))
          .returning();
        if (row) await noteMove(ctx, tx, row, { status: "expired", detail: "no deposit by the deadline" });
        return row;
      });
      if (expired) expiredCount += 1;
    }
    return expiredCount;
  },
};

/**
 * A lost job message delays a payout, never strands it: payouts with work left (in flight, or owing
 * their fee's return while someone can sign it) that have not moved for three poll intervals are
 * looked at again; the job merges with the payout's own chain, if it still has one, at the next poll
 * boundary.
 */
export const recoverPayouts: SweepHook<PayoutServices> = {
  name: "recover-payouts",
  async run(ctx) {
    const quietSince = new Date(ctx.clock.now().getTime() - 3 * PAYOUT_POLL_SECONDS * 1000);
    const stale = await ctx.db
      .select({ id: brebPayouts.id })
      .from(brebPayouts)
      .where(
        and(withWork(ctx.providers.payouts.feeWallet !== undefined), lt(brebPayouts.updatedAt, quietSince)),
      )
      .limit(SWEEP_BATCH);
    for (const { id } of stale) await schedulePayout(ctx, id);
    return stale.length;
  },
};

/**
 * The operator is told, once per payout, of a failed payout whose refund the chain has not shown
 * within BREB_REFUND_DEADLINE_SECONDS, and of a refunded one whose fee the service has not returned
 * within it: a `refund_overdue` or `fee_return_overdue` note on its timeline and an error in the log.
 * Both stay in GET /admin/payouts/attention until settled; the payout's job keeps asking meanwhile.
 */
export const flagOverduePayouts: SweepHook<PayoutServices> = {
  name: "flag-overdue-payouts",
  async run(ctx) {
    const cutoff = refundCutoff(ctx);
    const seconds = ctx.config.BREB_REFUND_DEADLINE_SECONDS;
    const unflagged = (note: PayoutNote) =>
      notExists(
        ctx.db
          .select({ one: sql`1` })
          .from(brebPayoutEvents)
          .where(and(eq(brebPayoutEvents.payoutId, brebPayouts.id), eq(brebPayoutEvents.status, note))),
      );
    const overdue = (where: SQL | undefined, note: PayoutNote) =>
      ctx.db
        .select({ id: brebPayouts.id })
        .from(brebPayouts)
        .where(and(where, lt(brebPayouts.updatedAt, cutoff), unflagged(note)))
        .limit(SWEEP_BATCH);
    const refunds = await overdue(eq(brebPayouts.status, "failed"), "refund_overdue");
    const fees = await overdue(OWES_FEE, "fee_return_overdue");
    const feeWhy = ctx.providers.payouts.feeWallet
      ? "the fee wallet has not returned it"
      : "no fee wallet key is configured (BREB_FEE_WALLET_KEY) to return it";
    for (const { id } of refunds) {
      await notePayout(ctx, ctx.db, id, {
        note: "refund_overdue",
        detail: `no refund proven on chain ${seconds} s after the payout failed: for the operator`,
      });
      ctx.log.error("payout refund overdue: the operator follows it up", { payoutId: id });
    }
    for (const { id } of fees) {
      await notePayout(ctx, ctx.db, id, {
        note: "fee_return_overdue",
        detail: `the service's fee is owed ${seconds} s after the refund, and ${feeWhy}: for the operator`,
      });
      ctx.log.error("payout fee return overdue: the operator follows it up", { payoutId: id });
    }
    return refunds.length + fees.length;
  },
};
