import type { SwapPathStep, swapIntents } from "../../schema";
import type { TokenSymbol } from "../kernel/money";
import { receiptView } from "../ledger/receipt";
import { swapReceipt } from "./receipt";

export type SwapRow = typeof swapIntents.$inferSelect;

/** Amounts in atomic units as integer strings, as the swap API takes them. */
export function swapView(row: SwapRow) {
  return {
    intentId: row.id,
    status: row.status as "prepared" | "confirmed",
    wallet: row.wallet,
    tokenIn: row.tokenIn as TokenSymbol,
    tokenOut: row.tokenOut as TokenSymbol,
    amountIn: row.amountIn.toString(),
    expectedAmountOut: row.expectedAmountOut.toString(),
    minAmountOut: row.minAmountOut.toString(),
    slippageBps: row.slippageBps,
    chainId: row.chainId,
    txHash: row.txHash,
    amountInSwapped: row.amountInSwapped?.toString() ?? null,
    amountOutReceived: row.amountOutReceived?.toString() ?? null,
    blockNumber: row.blockNumber?.toString() ?? null,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    confirmedAt: row.confirmedAt?.toISOString() ?? null,
    receipt: receiptView(swapReceipt(row)),
  };
}
export type SwapView = ReturnType<typeof swapView>;

export function pathView(path: readonly SwapPathStep[]) {
  return path.map((step) => ({ ...step }));
}
