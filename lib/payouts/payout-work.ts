import { and, eq, gt, inArray, isNotNull, isNull, or, type SQL } from "drizzle-orm";
import { brebPayouts } from "../../schema";
import type { PayoutRow, PayoutStatus } from "./payout-view";

/** Payouts the provider still has to finish, and how often one is looked at while it does. */
export const IN_FLIGHT: PayoutStatus[] = ["deposit_confirmed", "processing", "failed"];
export const PAYOUT_POLL_SECONDS = 10;

/**
 * A refunded payout whose service fee the service still owes the user: its refund was proven on chain
 * (refunds recorded before the proof existed were settled by the operator by hand, and are not paid
 * again) and no return of the fee is mined yet.
 */
export function owesFee(
  payout: Pick<PayoutRow, "status" | "refundAmount" | "serviceFee" | "feeReturnTxHash">,
) {
  return (
    payout.status === "refunded" &&
    payout.refundAmount !== null &&
    payout.serviceFee > 0n &&
    payout.feeReturnTxHash === null
  );
}

/** owesFee, as SQL. */
export const OWES_FEE: SQL | undefined = and(
  eq(brebPayouts.status, "refunded"),
  isNotNull(brebPayouts.refundAmount),
  gt(brebPayouts.serviceFee, 0n),
  isNull(brebPayouts.feeReturnTxHash),
);

/** Whether the payout's job still has something to do: follow the provider, or return the fee. */
export function hasWork(payout: PayoutRow): boolean {
  return IN_FLIGHT.includes(payout.status as PayoutStatus) || owesFee(payout);
}

/** hasWork, as SQL; `feeReturns` false leaves out payouts that only owe a fee (no fee wallet signer). */
export function withWork(feeReturns: boolean): SQL | undefined {
  const following = inArray(brebPayouts.status, IN_FLIGHT);
  return feeReturns ? or(following, OWES_FEE) : following;
}
