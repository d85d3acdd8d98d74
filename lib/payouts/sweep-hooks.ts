import { and, eq, inArray, lt } from "drizzle-orm";
import { brebPayouts } from "../../schema";
import type { SweepHook } from "../kernel/sweep";
import { IN_FLIGHT, PAYOUT_POLL_SECONDS, schedulePayout } from "./advance";
import type { PayoutServices } from "./breb-provider";
import { noteMove } from "./payout-records";

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
 * A lost job message delays a payout, never strands it: payouts in flight that have not moved for
 * three poll intervals are looked at again; the job merges with the payout's own chain, if it still
 * has one, at the next poll boundary.
 */
export const recoverPayouts: SweepHook<PayoutServices> = {
  name: "recover-payouts",
  async run(ctx) {
    const quietSince = new Date(ctx.clock.now().getTime() - 3 * PAYOUT_POLL_SECONDS * 1000);
    const stale = await ctx.db
      .select({ id: brebPayouts.id })
      .from(brebPayouts)
      .where(and(inArray(brebPayouts.status, IN_FLIGHT), lt(brebPayouts.updatedAt, quietSince)))
      .limit(SWEEP_BATCH);
    for (const { id } of stale) await schedulePayout(ctx, id);
    return stale.length;
  },
};
