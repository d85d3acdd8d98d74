import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/http/env";
import { BODY_ERRORS, errorResponses } from "../../lib/http/openapi-errors";
import type { RequestBody, ResponseBody } from "../../lib/http/route-types";
import { EVM_ADDRESS_RULE, parseEvmAddress } from "../../lib/kernel/chain/address";
import { CHAIN_ROLES } from "../../lib/kernel/chain/descriptor";
import {
  amountRule,
  parseAmount,
  TOKEN_DECIMALS,
  TOKEN_SYMBOLS,
  type TokenSymbol,
} from "../../lib/kernel/money";
import { fundFromFaucet } from "../../lib/sandbox/faucet";

const faucetRequestSchema = z
  .object({
    address: z
      .string()
      .refine((value) => parseEvmAddress(value) !== undefined, EVM_ADDRESS_RULE)
      .openapi({ example: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" }),
    chainRole: z.enum(CHAIN_ROLES).optional().openapi({
      description:
        "The chain by its role (`source`: the default source chain). One of chainRole and chainId.",
    }),
    chainId: z.number().int().positive().optional().openapi({
      description:
        "The chain by its id, as the network lists it (any source chain). One of chainRole and chainId.",
      example: 31334,
    }),
    token: z.enum(TOKEN_SYMBOLS as [TokenSymbol, ...TokenSymbol[]]),
    amount: z
      .string()
      .openapi({ description: 'Decimal string in whole tokens, e.g. "250.5".', example: "100" }),
  })
  .strict()
  .superRefine((request, ctx) => {
    if ((request.chainRole === undefined) === (request.chainId === undefined)) {
      ctx.addIssue({
        code: "custom",
        path: ["chainRole"],
        message: "give exactly one of chainRole and chainId",
      });
    }
    const decimals = TOKEN_DECIMALS[request.token];
    if (!parseAmount(request.amount, decimals).ok) {
      ctx.addIssue({ code: "custom", path: ["amount"], message: amountRule(decimals) });
    }
  })
  .openapi("FaucetRequest");

const faucetResultSchema = z
  .object({
    chainRole: z.enum(CHAIN_ROLES),
    chainId: z.number().int(),
    token: z.enum(TOKEN_SYMBOLS as [TokenSymbol, ...TokenSymbol[]]),
    tokenAddress: z.string(),
    address: z.string().openapi({ description: "The recipient, checksummed." }),
    amount: z.string(),
    balance: z.string().openapi({ description: "The recipient's token balance after the mint." }),
    mintTxHash: z.string(),
    gasTxHash: z.string().nullable().openapi({ description: "Set when native gas was topped up to 1." }),
  })
  .openapi("FaucetResult");

export const route = createRoute({
  method: "post",
  path: "/api/integrations/sandbox/faucet",
  operationId: "sandboxFaucet",
  summary: "Mint sandbox tokens and native gas to an address (mock mode only)",
  description:
    "Real transactions on the local chain: mints `amount` of `token` and tops native gas up to 1. " +
    "At most 100,000 USDC, USDT or USDm, or 400,000,000 COPm per call. Answers 404 in live mode.",
  tags: ["Sandbox"],
  request: { body: { required: true, content: { "application/json": { schema: faucetRequestSchema } } } },
  responses: {
    200: { description: "Minted", content: { "application/json": { schema: faucetResultSchema } } },
    ...errorResponses(
      ["INVALID_AMOUNT", "ABOVE_MAXIMUM", "NOT_FOUND", "PROVIDER_UNAVAILABLE", ...BODY_ERRORS],
      "partner",
    ),
  },
});

/** What this operation takes and answers, for its callers and tests. */
export type SandboxFaucetRequest = RequestBody<typeof route>;
export type SandboxFaucetResponse = ResponseBody<typeof route, 200>;

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const { chainRole, chainId, ...rest } = c.req.valid("json");
    const request = { ...rest, ...(chainRole ? { chainRole } : {}), ...(chainId ? { chainId } : {}) };
    return c.json(await fundFromFaucet(c.get("services"), request), 200);
  });
}
