import type { swapIntents } from "../../schema";
import { TOKEN_DECIMALS, type TokenSymbol } from "../kernel/money";
import { type Receipt, rateOf } from "../ledger/receipt";

/**
 * A swap's one leg: the user's own transaction through Mento, from the user's wallet back to it.
 * The service never holds the tokens, so the swap holds nothing; the rate is Mento's quoted one
 * against the one the transaction gave.
 */
export function swapReceipt(row: typeof swapIntents.$inferSelect): Receipt {
  const tokenIn = row.tokenIn as TokenSymbol;
  const tokenOut = row.tokenOut as TokenSymbol;
  const rate = (out: bigint, into: bigint) =>
    rateOf(out, TOKEN_DECIMALS[tokenOut], into, TOKEN_DECIMALS[tokenIn]);
  const swapped = row.amountInSwapped;
  const received = row.amountOutReceived;
  const done =
    row.status === "confirmed" && row.txHash && row.confirmedAt && swapped !== null && received !== null;
  return {
    legs: done
      ? [
          {
            leg: "swap",
            at: row.confirmedAt as Date,
            chainId: row.chainId,
            txHash: row.txHash,
            tokenIn,
            amountIn: swapped,
            tokenOut,
            amountOut: received,
            fees: [],
            movements: [
              { token: tokenIn, chainId: row.chainId, amount: swapped, counterparty: "user" },
              { token: tokenIn, chainId: row.chainId, amount: -swapped, counterparty: "mento" },
              { token: tokenOut, chainId: row.chainId, amount: received, counterparty: "mento" },
              { token: tokenOut, chainId: row.chainId, amount: -received, counterparty: "user" },
            ],
          },
        ]
      : [],
    rates: [
      {
        of: `${tokenOut} per ${tokenIn} (Mento)`,
        quoted: rate(row.expectedAmountOut, row.amountIn),
        achieved: done ? rate(received, swapped) : null,
      },
    ],
  };
}
