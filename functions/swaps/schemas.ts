import { z } from "@hono/zod-openapi";
import { sinceQuery } from "../../lib/http/since-query";
import { TOKEN_SYMBOLS } from "../../lib/kernel/money";
import { decodeCursor, SWAPS_DEFAULT_LIMIT, SWAPS_PAGE_LIMIT } from "../../lib/swaps/list-swaps";
import { receiptSchema } from "../ledger/schemas";

export const swapSchema = z
  .object({
    intentId: z.string().openapi({ example: "si_01KAZ6XQ4R8N2M5V7B9C1D3F5G" }),
    status: z.enum(["prepared", "confirmed"]),
    wallet: z.string(),
    tokenIn: z.enum(TOKEN_SYMBOLS as [string, ...string[]]),
    tokenOut: z.enum(TOKEN_SYMBOLS as [string, ...string[]]),
    amountIn: z.string().openapi({ description: "Atomic units of tokenIn, as prepared." }),
    expectedAmountOut: z.string(),
    minAmountOut: z.string(),
    slippageBps: z.number().int(),
    chainId: z.number().int(),
    txHash: z.string().nullable(),
    amountInSwapped: z
      .string()
      .nullable()
      .openapi({ description: "From the transaction's logs, once confirmed." }),
    amountOutReceived: z
      .string()
      .nullable()
      .openapi({ description: "From the transaction's logs, once confirmed." }),
    blockNumber: z.string().nullable(),
    createdAt: z.string().datetime(),
    expiresAt: z.string().datetime(),
    confirmedAt: z.string().datetime().nullable(),
    receipt: receiptSchema,
  })
  .openapi("Swap");

const stepSchema = z.object({
  exchangeProvider: z.string(),
  exchangeId: z.string(),
  assetIn: z.string(),
  assetOut: z.string(),
});

export const preparedSwapSchema = z
  .object({
    intentId: z.string(),
    expiresAt: z.string().datetime(),
    quote: z.object({
      amountIn: z.string(),
      expectedAmountOut: z.string(),
      minAmountOut: z.string(),
      slippageBps: z.number().int(),
      path: z.array(stepSchema),
    }),
    transaction: z
      .object({
        chainId: z.number().int(),
        target: z.string(),
        calldata: z.string(),
        token: z.string(),
        amount: z.string(),
        value: z.literal("0"),
      })
      .openapi({
        description: "Send as given: the caller must not modify target, calldata, token or amount.",
      }),
    approval: z
      .object({ chainId: z.number().int(), target: z.string(), calldata: z.string(), value: z.literal("0") })
      .optional()
      .openapi({ description: "Present when the wallet's allowance to the target is short: send it first." }),
    swap: swapSchema,
  })
  .openapi("PreparedSwap");

/** The swap listing's query: the API's and the dashboard's Swaps page's. */
export const listSwapsQuery = z.object({
  integration_id: z.string().min(1).max(100),
  since: sinceQuery("Confirmed at or after."),
  limit: z.coerce.number().int().min(1).max(SWAPS_PAGE_LIMIT).default(SWAPS_DEFAULT_LIMIT),
  cursor: z
    .string()
    .refine((value) => decodeCursor(value) !== undefined, "a cursor, as nextCursor gives it")
    .optional(),
});
