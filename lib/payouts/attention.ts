import { and, asc, eq, lt, or } from "drizzle-orm";
import { brebPayouts } from "../../schema";
import type { ServiceContext } from "../kernel/context";
import type { PayoutRow } from "./payout-view";
import { OWES_FEE, owesFee } from "./payout-work";

/**
 * Why a payout waits on the operator: a deposit the provider will not pay (refund_required), a
 * refund the chain has not shown within the deadline, a refund short of what was owed, a fee the
 * service has not returned within the deadline.
 */
export const PAYOUT_ATTENTION_REASONS = [
  "refund_required",
  "refund_overdue",
  "refund_short",
  "fee_return_overdue",
] as const;
export type PayoutAttentionReason = (typeof PAYOUT_ATTENTION_REASONS)[number];

const ATTENTION_LIMIT = 500;

/** Before this, a payout that still waits for its refund or its fee's return is overdue. */
export function refundCutoff(ctx: ServiceContext): Date {
  return new Date(ctx.clock.now().getTime() - ctx.config.BREB_REFUND_DEADLINE_SECONDS * 1000);
}

/** The payouts the operator must look at, across every organization, longest waiting first. */
export async function payoutsForOperator(
  ctx: ServiceContext,
): Promise<Array<{ reason: PayoutAttentionReason; payout: PayoutRow }>> {
  const cutoff = refundCutoff(ctx);
  const rows = await ctx.db
    .select()
    .from(brebPayouts)
    .where(
      or(
        eq(brebPayouts.status, "refund_required"),
        and(eq(brebPayouts.status, "failed"), lt(brebPayouts.updatedAt, cutoff)),
        and(eq(brebPayouts.status, "refunded"), lt(brebPayouts.refundAmount, brebPayouts.providerAmount)),
        and(OWES_FEE, lt(brebPayouts.updatedAt, cutoff)),
      ),
    )
    .orderBy(asc(brebPayouts.updatedAt), asc(brebPayouts.id))
    .limit(ATTENTION_LIMIT);
  return rows.flatMap((payout) => reasonsOf(payout, cutoff).map((reason) => ({ reason, payout })));
}

function reasonsOf(payout: PayoutRow, cutoff: Date): PayoutAttentionReason[] {
  const late = payout.updatedAt < cutoff;
  const reasons: PayoutAttentionReason[] = [];
  if (payout.status === "refund_required") reasons.push("refund_required");
  if (payout.status === "failed" && late) reasons.push("refund_overdue");
  if (
    payout.status === "refunded" &&
    payout.refundAmount !== null &&
    payout.refundAmount < payout.providerAmount
  ) {
    reasons.push("refund_short");
  }
  if (owesFee(payout) && late) reasons.push("fee_return_overdue");
  return reasons;
}
