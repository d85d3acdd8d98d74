import { and, eq, ne } from "drizzle-orm";
import type { Hex } from "viem";
import { brebPayouts } from "../../schema";
import { assertWalletIfAnonymous } from "../identity/wallet-sessions";
import { isUniqueViolation } from "../kernel/db/errors";
import { ApiError } from "../kernel/errors/api-error";
import type { PartnerContext } from "../tenancy/caller";
import { advancePayoutJob } from "./advance";
import { loadPayoutView, noteMove } from "./payout-records";
import type { PayoutRow, PayoutView } from "./payout-view";
import { verifyDeposit } from "./verify-deposit";

/**
 * Confirms the user's deposit by its hash: verified on the payout chain against the payout (its own
 * PayoutDeposited, so a smart wallet's batch confirms each of its payouts with the same hash), then
 * the payout moves (compare-and-set) to deposit_confirmed and a job hands it to the provider. A
 * deposit mined after depositDeadline moves it to refund_required instead (PAYOUT_EXPIRED): the
 * operator returns the funds. The same hash again answers the payout as it is now; a hash that
 * confirmed another payout and holds no deposit of this one is TX_ALREADY_USED. A payout the sweep
 * expired is still confirmed by a deposit mined before its deadline (only the confirmation was late).
 */
export async function confirmPayout(
  ctx: PartnerContext,
  payoutId: string,
  txHash: Hex,
  walletSession?: string | undefined,
): Promise<PayoutView> {
  const payout = await ownPayout(ctx, payoutId);
  await assertWalletIfAnonymous(ctx, walletSession, payout.userAddress);
  const hash = txHash.toLowerCase();
  if (payout.depositTxHash?.toLowerCase() === hash) return loadPayoutView(ctx.db, payout);
  // An expired payout may still be confirmed: the deposit's block time decides whether it was in time.
  if (payout.status !== "awaiting_deposit" && payout.status !== "expired") {
    throw new ApiError("INVALID_DEPOSIT", {
      detail: `(the payout is ${payout.status}${payout.depositTxHash ? " with another deposit" : ""})`,
    });
  }
  const chain = ctx.chains.byRole("destination");
  if (!chain || chain.chainId !== payout.chainId) throw new ApiError("PAYOUTS_UNCONFIGURED");
  const deposit = await verifyDeposit(chain, payout, txHash).catch(async (error: unknown) => {
    // Another payout's transaction with nothing of this one in it: say whose it is.
    if (
      error instanceof ApiError &&
      error.code === "INVALID_DEPOSIT" &&
      (await confirmedAnother(ctx, payout, hash))
    ) {
      throw new ApiError("TX_ALREADY_USED");
    }
    throw error;
  });
  const late = deposit.blockTime > payout.depositDeadline;
  const status = late ? "refund_required" : "deposit_confirmed";

  let moved: PayoutRow | undefined;
  try {
    moved = await ctx.db.transaction(async (tx) => {
      const [row] = await tx
        .update(brebPayouts)
        .set({ status, depositTxHash: hash, depositLogIndex: deposit.logIndex, updatedAt: ctx.clock.now() })
        .where(and(eq(brebPayouts.id, payout.id), eq(brebPayouts.status, payout.status)))
        .returning();
      if (row) await noteMove(ctx, tx, row, { status, txHash: hash });
      return row;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new ApiError("TX_ALREADY_USED");
    throw error;
  }
  if (!moved) return confirmPayout(ctx, payoutId, txHash, walletSession); // another request moved it first: answer as it is now
  if (late) {
    throw new ApiError("PAYOUT_EXPIRED", {
      detail: `(deposited ${deposit.blockTime.toISOString()}, deadline ${payout.depositDeadline.toISOString()})`,
    });
  }
  await ctx.jobs.enqueue(advancePayoutJob, { payoutId: moved.id }, { dedupeId: `payout-${moved.id}-submit` });
  return loadPayoutView(ctx.db, moved);
}

async function confirmedAnother(ctx: PartnerContext, payout: PayoutRow, hash: string): Promise<boolean> {
  const [other] = await ctx.db
    .select({ id: brebPayouts.id })
    .from(brebPayouts)
    .where(
      and(
        eq(brebPayouts.depositTxHash, hash),
        ne(brebPayouts.id, payout.id),
        // Only the organization's own payouts say "used" (issue 37, finding 1).
        eq(brebPayouts.organizationId, ctx.caller.organizationId),
      ),
    )
    .limit(1);
  return other !== undefined;
}

/** The caller organization's payout; another organization's answers exactly as a missing one. */
export async function ownPayout(ctx: PartnerContext, payoutId: string): Promise<PayoutRow> {
  const [payout] = await ctx.db
    .select()
    .from(brebPayouts)
    .where(and(eq(brebPayouts.id, payoutId), eq(brebPayouts.organizationId, ctx.caller.organizationId)));
  if (!payout) throw new ApiError("PAYOUT_NOT_FOUND");
  return payout;
}
