import type { Move, OrderState } from "../../lib/settlement/progress/state";

/**
 * The move a verified burn makes, for tests that need an order BURNED without burning on a chain:
 * the figures its quote promised, as submit-burn records them from the chain.
 */
export function verifiedBurnMove(state: OrderState, chainId: number, txHash: string): Move {
  return {
    kind: "BURN_VERIFIED",
    chainId,
    txHash,
    detail: {
      amount: state.quote.totalDebitUsdc.toString(),
      maxFee: state.quote.transferUpfrontFeeUsdc.toString(),
      blockNumber: "1",
      logIndex: 0,
      burnedAt: state.order.createdAt.toISOString(),
    },
  };
}
