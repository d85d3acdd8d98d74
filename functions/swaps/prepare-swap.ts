import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { getAddress } from "viem";
import type { AppEnv } from "../../lib/http/env";
import { BODY_ERRORS, errorResponses } from "../../lib/http/openapi-errors";
import { partnerContext } from "../../lib/http/partner-context";
import type { RequestBody, ResponseBody } from "../../lib/http/route-types";
import { issueCode } from "../../lib/http/validation";
import { TOKEN_SYMBOLS, type TokenSymbol } from "../../lib/kernel/money";
import { DEFAULT_SLIPPAGE_BPS, MAX_SLIPPAGE_BPS } from "../../lib/swaps/pairs";
import { prepareSwap } from "../../lib/swaps/prepare-swap";
import { preparedSwapSchema } from "./schemas";

const token = z.string().refine((value) => (TOKEN_SYMBOLS as string[]).includes(value), {
  message: "must be USDT, USDC, USDm or COPm",
  params: issueCode("UNSUPPORTED_PAIR"),
});

const requestSchema = z
  .object({
    wallet: z
      .string()
      .refine(
        (value) =>
          /^0x[0-9a-fA-F]{40}$/.test(value) && (value === value.toLowerCase() || value === getAddress(value)),
        {
          message: "must be an EVM address (all lower case, or EIP-55 checksummed)",
          params: issueCode("INVALID_WALLET_ADDRESS"),
        },
      )
      .openapi({ example: "0x8ba1f109551bD432803012645Ac136ddd64DBA72" }),
    tokenIn: token.openapi({ example: "USDC" }),
    tokenOut: token.openapi({ example: "COPm" }),
    amountIn: z
      .string()
      .refine((value) => /^[1-9]\d{0,59}$/.test(value), {
        message:
          "must be a positive integer of tokenIn's atomic units (USDT and USDC 6 decimals, USDm and COPm 18)",
        params: issueCode("INVALID_AMOUNT"),
      })
      .openapi({ example: "25000000" }),
    slippageBps: z
      .number()
      .int()
      .min(0)
      .max(MAX_SLIPPAGE_BPS)
      .optional()
      .openapi({ description: "Default 50, at most 300." }),
  })
  .strict()
  .openapi("SwapPrepareRequest");

export const route = createRoute({
  method: "post",
  path: "/api/integrations/swaps/prepare",
  operationId: "prepareSwap",
  summary: "Prepare a Mento swap the wallet signs",
  description:
    "Pairs: USDT, USDC or USDm to COPm, and COPm to USDT, on the destination chain, in one transaction along the Mento path: the router for the pairs through USDm (two hops), the broker's swapIn for USDm → COPm (one hop). Amounts are atomic units. The intent lives 5 minutes; a prepared intent is not a swap until it is confirmed by its hash.",
  tags: ["Swaps"],
  request: { body: { required: true, content: { "application/json": { schema: requestSchema } } } },
  responses: {
    201: {
      description: "The prepared swap",
      content: { "application/json": { schema: preparedSwapSchema } },
    },
    ...errorResponses(
      [
        "SANCTIONED_ADDRESS",
        "SCREENING_UNAVAILABLE",
        "INVALID_WALLET_ADDRESS",
        "UNSUPPORTED_PAIR",
        "INVALID_AMOUNT",
        "MENTO_CAPACITY_EXCEEDED",
        "ROUTE_UNAVAILABLE",
        "PROVIDER_UNAVAILABLE",
        ...BODY_ERRORS,
      ],
      "partner",
    ),
  },
});

/** What this operation takes and answers, for its callers and tests. */
export type PrepareSwapRequest = RequestBody<typeof route>;
export type PrepareSwapResponse = ResponseBody<typeof route, 201>;

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const body = c.req.valid("json");
    const prepared = await prepareSwap(partnerContext(c), {
      wallet: getAddress(body.wallet),
      tokenIn: body.tokenIn as TokenSymbol,
      tokenOut: body.tokenOut as TokenSymbol,
      amountIn: BigInt(body.amountIn),
      slippageBps: body.slippageBps ?? DEFAULT_SLIPPAGE_BPS,
    });
    return c.json(prepared, 201);
  });
}
