import type { brebPayoutEvents, brebPayouts } from "../../schema";
import { TOKEN_DECIMALS } from "../kernel/money";
import { type Receipt, type ReceiptLeg, rateOf } from "../ledger/receipt";
import type { BrebToken } from "./breb-provider";

/**
 * A payout's legs: the user's deposit (one transaction paying the provider's amount to its deposit
 * address, the service's fee to the fee wallet and the organization's own fee to its address), the
 * provider's payment of the pesos (off chain: no transaction hash; the provider's own fee is inside
 * its amount), a refund, when the provider sends the deposit back to the user on chain (what was
 * owed in, what the chain showed it pay out), and the return of the service's fee from the fee
 * wallet, once mined.
 */
export function payoutReceipt(
  row: typeof brebPayouts.$inferSelect,
  events: readonly (typeof brebPayoutEvents.$inferSelect)[],
): Receipt {
  const token = row.token as BrebToken;
  const at = (status: string) => events.find((event) => event.status === status)?.at;
  const legs: ReceiptLeg[] = [];
  const depositedAt = row.depositTxHash
    ? (events.find((event) => event.txHash === row.depositTxHash)?.at ?? row.updatedAt)
    : undefined;
  if (depositedAt && row.depositTxHash) {
    legs.push({
      leg: "deposit",
      at: depositedAt,
      chainId: row.chainId,
      txHash: row.depositTxHash,
      tokenIn: token,
      amountIn: row.sourceAmount,
      tokenOut: token,
      amountOut: row.providerAmount,
      fees: [
        ...(row.serviceFee > 0n ? [{ type: "service" as const, token, amount: row.serviceFee }] : []),
        ...(row.partnerFee > 0n ? [{ type: "partner" as const, token, amount: row.partnerFee }] : []),
      ],
      movements: [
        { token, chainId: row.chainId, amount: row.sourceAmount, counterparty: "user" },
        { token, chainId: row.chainId, amount: -row.serviceFee, counterparty: "service" },
        ...(row.partnerFee > 0n
          ? [{ token, chainId: row.chainId, amount: -row.partnerFee, counterparty: "partner" as const }]
          : []),
        { token, chainId: row.chainId, amount: -row.providerAmount, counterparty: "provider" },
      ],
    });
  }
  const completedAt = at("completed");
  if (completedAt) {
    legs.push({
      leg: "provider_payout",
      at: completedAt,
      chainId: row.chainId,
      txHash: null,
      tokenIn: token,
      amountIn: row.providerAmount,
      tokenOut: "COP",
      amountOut: row.destinationCop,
      fees: [],
      movements: [],
    });
  }
  const refundedAt = at("refunded");
  if (refundedAt) {
    // What the chain showed the refund pay (refunds recorded before it was read: what was owed).
    const refunded = row.refundAmount ?? row.providerAmount;
    const short = row.providerAmount - refunded;
    legs.push({
      leg: "refund",
      at: refundedAt,
      chainId: row.chainId,
      txHash: row.refundTxHash,
      tokenIn: token,
      amountIn: row.providerAmount,
      tokenOut: token,
      amountOut: refunded,
      // What the provider kept of what it owed, when its refund fell short.
      fees: short > 0n ? [{ type: "provider" as const, token, amount: short }] : [],
      // From the provider to the user: through none of the payout's own funds.
      movements: [
        { token, chainId: row.chainId, amount: refunded, counterparty: "provider" },
        { token, chainId: row.chainId, amount: -refunded, counterparty: "user" },
      ],
    });
  }
  const feeReturnedAt = at("fee_returned");
  if (feeReturnedAt && row.feeReturnTxHash) {
    legs.push({
      leg: "fee_return",
      at: feeReturnedAt,
      chainId: row.chainId,
      txHash: row.feeReturnTxHash,
      tokenIn: token,
      amountIn: row.serviceFee,
      tokenOut: token,
      amountOut: row.serviceFee,
      fees: [],
      // From the service's fee wallet back to the user.
      movements: [
        { token, chainId: row.chainId, amount: row.serviceFee, counterparty: "service" },
        { token, chainId: row.chainId, amount: -row.serviceFee, counterparty: "user" },
      ],
    });
  }
  const quoted = rateOf(row.destinationCop, 0, row.sourceAmount, TOKEN_DECIMALS[token]);
  return {
    legs,
    rates: [{ of: `COP per ${token} deposited`, quoted, achieved: completedAt ? quoted : null }],
  };
}
