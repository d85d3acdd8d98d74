import { type brebPayoutEvents, type brebPayouts, PAYOUT_STATUSES, type PayoutStatus } from "../../schema";

export { PAYOUT_STATUSES, type PayoutStatus };

import { formatAmount, TOKEN_DECIMALS } from "../kernel/money";
import { receiptView } from "../ledger/receipt";
import { maskedBrebKey } from "./breb-key";
import type { BrebToken } from "./breb-provider";
import { payoutReceipt } from "./receipt";

export type PayoutRow = typeof brebPayouts.$inferSelect;
export type PayoutEventRow = typeof brebPayoutEvents.$inferSelect;

/** A payout as partners read it: the quote's terms, the destination with the key masked, the timeline. */
export function payoutView(row: PayoutRow, events: readonly PayoutEventRow[]) {
  const token = row.token as BrebToken;
  const decimals = TOKEN_DECIMALS[token];
  return {
    payoutId: row.id,
    status: row.status as PayoutStatus,
    quoteId: row.quoteId,
    userAddress: row.userAddress,
    fromToken: token,
    destinationCop: row.destinationCop.toString(),
    sourceAmount: formatAmount(row.sourceAmount, decimals),
    providerAmount: formatAmount(row.providerAmount, decimals),
    serviceFee: formatAmount(row.serviceFee, decimals),
    partnerFee: formatAmount(row.partnerFee, decimals),
    destination: {
      breBKey: maskedBrebKey(row.breBKey),
      keyType: row.breBKeyType,
      accountOwnerName: row.accountOwnerName,
    },
    depositDeadline: row.depositDeadline.toISOString(),
    depositTxHash: row.depositTxHash,
    providerPayoutId: row.providerPayoutId,
    brebTransactionId: row.brebTransactionId,
    refundTxHash: row.refundTxHash,
    failureReason: row.failureReason,
    receipt: receiptView(payoutReceipt(row, events)),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    timeline: [...events]
      .sort((a, b) => a.at.getTime() - b.at.getTime() || a.id.localeCompare(b.id))
      .map((event) => ({
        at: event.at.toISOString(),
        status: event.status,
        detail: event.detail,
        txHash: event.txHash,
      })),
  };
}
export type PayoutView = ReturnType<typeof payoutView>;
