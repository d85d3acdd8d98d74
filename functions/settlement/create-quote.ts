import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/http/env";
import { BODY_ERRORS, errorResponses } from "../../lib/http/openapi-errors";
import { partnerContext } from "../../lib/http/partner-context";
import type { RequestBody, ResponseBody } from "../../lib/http/route-types";
import { issueCode } from "../../lib/http/validation";
import { EVM_ADDRESS_RULE, parseEvmAddress } from "../../lib/kernel/chain/address";
import { amountRule, parseAmount } from "../../lib/kernel/money";
import {
  COPM_DECIMALS,
  createQuote,
  MAX_SEND_USDC,
  MIN_SEND_USDC,
  quoteView,
  USDC_DECIMALS,
} from "../../lib/settlement";
import { PRICING_ERRORS, quoteSchema } from "./schemas";

const address = (example: string) =>
  z
    .string()
    .refine((value) => parseEvmAddress(value) !== undefined, EVM_ADDRESS_RULE)
    .openapi({ example });

const copAmount = z
  .string()
  .superRefine((value, ctx) => {
    const parsed = parseAmount(value, COPM_DECIMALS);
    if (!parsed.ok || parsed.units === 0n) {
      ctx.addIssue({
        code: "custom",
        message: `${amountRule(COPM_DECIMALS)}, above 0`,
        params: issueCode("INVALID_AMOUNT"),
      });
    }
  })
  .openapi({
    description:
      "Instead of sendAmountUsdc: the COPm the destination must receive at least (decimal string, at most 18 decimals). The service solves for the principal whose floor (`copAmountMin`) is at least this, within 10–1,000 USDC (BELOW_MINIMUM or ABOVE_MAXIMUM otherwise), and answers both.",
    example: "400000",
  });

export const quoteRequestSchema = z
  .object({
    sendAmountUsdc: z
      .string()
      .superRefine((value, ctx) => {
        const parsed = parseAmount(value, USDC_DECIMALS);
        if (!parsed.ok) {
          ctx.addIssue({
            code: "custom",
            message: amountRule(USDC_DECIMALS),
            params: issueCode("INVALID_AMOUNT"),
          });
        } else if (parsed.units < MIN_SEND_USDC) {
          ctx.addIssue({
            code: "custom",
            message: "must be at least 10 USDC",
            params: issueCode("BELOW_MINIMUM"),
          });
        } else if (parsed.units > MAX_SEND_USDC) {
          ctx.addIssue({
            code: "custom",
            message: "must be at most 1000 USDC",
            params: issueCode("ABOVE_MAXIMUM"),
          });
        }
      })
      .optional()
      .openapi({
        description:
          "Decimal string, at most 6 decimals, 10 to 1,000 inclusive. Exactly one of sendAmountUsdc and receiveAmountCop.",
        example: "100",
      }),
    receiveAmountCop: copAmount.optional(),
    sourceAddress: address("0x70997970C51812dc3A010C7d01b50e0d17dc79C8"),
    destinationAddress: address("0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC"),
    sourceChain: z
      .union([z.number().int().positive(), z.string().trim().min(1).max(64)])
      .optional()
      .openapi({
        description:
          "The chain the user's USDC leaves: its chain id (42161) or its name as `GET /api/integrations/settlements/chains` lists it (\"Arbitrum One\", any case). Without it, the organization's default source chain. One this service does not serve is UNSUPPORTED_SOURCE_CHAIN.",
        example: 42161,
      }),
  })
  .strict()
  .superRefine((body, ctx) => {
    if ((body.sendAmountUsdc === undefined) === (body.receiveAmountCop === undefined)) {
      ctx.addIssue({
        code: "custom",
        path: ["sendAmountUsdc"],
        message: "give exactly one of sendAmountUsdc and receiveAmountCop",
        params: issueCode("INVALID_AMOUNT"),
      });
    }
  })
  .openapi("SettlementQuoteRequest");

export const route = createRoute({
  method: "post",
  path: "/api/integrations/settlements/quotes",
  operationId: "createSettlementQuote",
  summary: "Price a settlement of USDC into COPm",
  description:
    "Creating a quote moves no funds. The quote is reserved for the caller's organization and expires " +
    "60 seconds after creation; order it with `POST /api/integrations/settlements/orders`.",
  tags: ["Settlement"],
  request: { body: { required: true, content: { "application/json": { schema: quoteRequestSchema } } } },
  responses: {
    201: { description: "The quote", content: { "application/json": { schema: quoteSchema } } },
    ...errorResponses(
      [
        "SANCTIONED_ADDRESS",
        "SCREENING_UNAVAILABLE",
        "INVALID_AMOUNT",
        "INVALID_SOURCE_ADDRESS",
        "INVALID_DESTINATION_ADDRESS",
        "UNSUPPORTED_SOURCE_CHAIN",
        "BELOW_MINIMUM",
        "ABOVE_MAXIMUM",
        ...PRICING_ERRORS,
        ...BODY_ERRORS,
      ],
      "partner",
    ),
  },
});

/** What this operation takes and answers, for its callers and tests. */
export type CreateSettlementQuoteRequest = RequestBody<typeof route>;
export type CreateSettlementQuoteResponse = ResponseBody<typeof route, 201>;

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const body = c.req.valid("json");
    const quote = await createQuote(partnerContext(c), {
      amount:
        body.receiveAmountCop === undefined
          ? { sendUsdc: unitsOf(body.sendAmountUsdc, USDC_DECIMALS) }
          : { receiveCop: unitsOf(body.receiveAmountCop, COPM_DECIMALS) },
      sourceAddress: parseEvmAddress(body.sourceAddress) as `0x${string}`,
      destinationAddress: parseEvmAddress(body.destinationAddress) as `0x${string}`,
      ...(body.sourceChain === undefined ? {} : { sourceChain: body.sourceChain }),
    });
    return c.json(quoteView(quote), 201);
  });
}

/** A decimal the schema already checked, in atomic units. */
function unitsOf(text: string | undefined, decimals: number): bigint {
  const parsed = parseAmount(text ?? "", decimals);
  if (!parsed.ok) throw new Error(`unchecked amount: ${text}`);
  return parsed.units;
}
