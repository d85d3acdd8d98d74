import { and, eq, inArray, isNull } from "drizzle-orm";
import { brebFeeReturns, brebPayouts, type FeeReturnState } from "../../schema";
import type { ServiceContext } from "../kernel/context";
import { withAccountLock as withSigningLock } from "../kernel/db/account-lock";
import type { Database } from "../kernel/db/database";
import { notePayout } from "./payout-records";
import type { PayoutRow } from "./payout-view";

export type FeeReturnRow = typeof brebFeeReturns.$inferSelect;

/** Versions that may still be mined, or were: the payout's return, if it has one. */
const LIVE: FeeReturnState[] = ["signed", "sent", "success"];
export const UNMINED: FeeReturnState[] = ["signed", "sent"];

export async function liveReturn(db: Database, payoutId: string): Promise<FeeReturnRow | undefined> {
  const [row] = await db
    .select()
    .from(brebFeeReturns)
    .where(and(eq(brebFeeReturns.payoutId, payoutId), inArray(brebFeeReturns.status, LIVE)));
  return row;
}

/** Moves a recorded return on, from a state it may still leave (never back from a final one). */
export async function setReturnState(
  ctx: ServiceContext,
  row: FeeReturnRow,
  state: Exclude<FeeReturnState, "signed" | "success">,
): Promise<void> {
  await ctx.db
    .update(brebFeeReturns)
    .set({ status: state, updatedAt: ctx.clock.now() })
    .where(and(eq(brebFeeReturns.id, row.id), inArray(brebFeeReturns.status, UNMINED)));
}

/**
 * The return mined and shown by its Transfer: the record and the payout say so in one transaction,
 * with the `fee_returned` note, so a crash between the two cannot leave a return unrecorded.
 */
export async function recordReturned(
  ctx: ServiceContext,
  payout: PayoutRow,
  row: FeeReturnRow,
  logIndex: number,
): Promise<void> {
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    await tx
      .update(brebFeeReturns)
      .set({ status: "success", logIndex, updatedAt: now })
      .where(eq(brebFeeReturns.id, row.id));
    const [marked] = await tx
      .update(brebPayouts)
      .set({ feeReturnTxHash: row.hash, updatedAt: now })
      .where(and(eq(brebPayouts.id, payout.id), isNull(brebPayouts.feeReturnTxHash)))
      .returning({ id: brebPayouts.id });
    if (!marked) return;
    await notePayout(ctx, tx, payout.id, {
      note: "fee_returned",
      detail: `the service's fee, ${row.amount} (atomic units), returned to the wallet from the fee wallet ${row.fromAddress} (Transfer log ${logIndex})`,
      txHash: row.hash,
    });
  });
}

/**
 * Runs `work` in a transaction holding the fee wallet's lock on the chain (the same lock every
 * signing account takes), so two payouts' returns never take one nonce.
 */
export function withAccountLock<T>(
  ctx: ServiceContext,
  chainId: number,
  address: string,
  work: (tx: Database) => Promise<T>,
): Promise<T> {
  return withSigningLock(ctx.db, { chainId, address }, work);
}
