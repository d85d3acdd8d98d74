import type { brebPayoutEvents, brebPayouts } from "../../schema";
import { TOKEN_DECIMALS } from "../kernel/money";
import { type Receipt, type ReceiptLeg, rateOf } from "../ledger/receipt";
import type { BrebToken } from "./breb-provider";

/**
 * A payout's legs: the user's deposit (one transaction paying the provider's amount to its deposit
 * address, the service's fee to the fee wallet and the organization's own fee to its address), the provider's payment of the pesos (off chain:
 * no transaction hash; the provider's own fee is inside its amount), and a refund, when the
 * provider sends the deposit back to the user on chain.
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
    legs.push({
      leg: "refund",
      at: refundedAt,
      chainId: row.chainId,
      txHash: row.refundTxHash,
      tokenIn: token,
      amountIn: row.providerAmount,
      tokenOut: token,
      amountOut: row.providerAmount,
      fees: [],
      // From the provider to the user: through none of the payout's own funds.
      movements: [
        { token, chainId: row.chainId, amount: row.providerAmount, counterparty: "provider" },
        { token, chainId: row.chainId, amount: -row.providerAmount, counterparty: "user" },
      ],
    });
  }
  const quoted = rateOf(row.destinationCop, 0, row.sourceAmount, TOKEN_DECIMALS[token]);
  return {
    legs,
    rates: [{ of: `COP per ${token} deposited`, quoted, achieved: completedAt ? quoted : null }],
  };
}
