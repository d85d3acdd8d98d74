import { and, eq } from "drizzle-orm";
import { brebPayouts } from "../../schema";
import { ApiError } from "../kernel/errors/api-error";
import { ProviderFailure } from "../kernel/provider-failure";
import { schedulePayout } from "./advance";
import { applyPayoutReport } from "./apply-report";
import type { BrebPayoutReport, PayoutServices } from "./breb-provider";
import { loadPayoutView, noteMove, providerRequestOf } from "./payout-records";
import type { PayoutRow, PayoutStatus } from "./payout-view";

/** Where a payout's deposit sits with the provider, unpaid: the operator may send it back. */
const REFUNDABLE: PayoutStatus[] = ["refund_required", "failed"];

/**
 * The operator's refund of a payout that will not be paid (admin API): the provider sends the
 * user's deposit back to the user's address on the payout chain. A `refund_required` payout moves
 * to `failed` (its refund follows, with the operator's reason, event `payout.failed`), then to
 * `refunded` with the provider's refund transaction (event `payout.refunded`) as the provider
 * reports it, by answer, callback or poll, once the payout chain shows it (applyPayoutReport).
 * Asking again asks the provider again, which answers the refund it already has.
 */
export async function refundPayout(ctx: PayoutServices, payoutId: string, reason: string) {
  const [payout] = await ctx.db.select().from(brebPayouts).where(eq(brebPayouts.id, payoutId));
  if (!payout) throw new ApiError("PAYOUT_NOT_FOUND");
  if (!REFUNDABLE.includes(payout.status as PayoutStatus) || !payout.depositTxHash) {
    throw new ApiError("PAYOUT_NOT_REFUNDABLE", { detail: `(status ${payout.status})` });
  }
  const provider = ctx.providers.payouts.provider;
  if (!provider) throw new ApiError("PROVIDER_UNAVAILABLE");
  const report = await askRefund(ctx, payout);
  if (payout.status === "refund_required") {
    await ctx.db.transaction(async (tx) => {
      const [row] = await tx
        .update(brebPayouts)
        .set({
          status: "failed",
          failureReason: `${payout.failureReason ?? "not paid"}; refund requested: ${reason}`,
          updatedAt: ctx.clock.now(),
        })
        .where(and(eq(brebPayouts.id, payout.id), eq(brebPayouts.status, "refund_required")))
        .returning();
      if (row) await noteMove(ctx, tx, row, { status: "failed", detail: `refund requested: ${reason}` });
    });
  }
  await applyPayoutReport(ctx, report);
  await schedulePayout(ctx, payout.id);
  const [now] = await ctx.db.select().from(brebPayouts).where(eq(brebPayouts.id, payoutId));
  return loadPayoutView(ctx.db, now ?? payout);
}

async function askRefund(ctx: PayoutServices, payout: PayoutRow): Promise<BrebPayoutReport> {
  const provider = ctx.providers.payouts.provider;
  if (!provider) throw new ApiError("PROVIDER_UNAVAILABLE");
  try {
    return await provider.refund(providerRequestOf(payout));
  } catch (error) {
    if (!(error instanceof ProviderFailure)) throw error;
    if (error.kind === "no_route") throw new ApiError("PAYOUT_NOT_REFUNDABLE", { detail: error.message });
    throw new ApiError("PROVIDER_UNAVAILABLE");
  }
}
