import { z } from "zod";
import type { ProviderFailureKind } from "../../../kernel/provider-failure";
import { callVendor } from "../../../kernel/vendor-calls";
import type { SettlementServices } from "../../context";
import { irisBudget, lifiQuoteBudget } from "../../legs/vendor-polls";
import type { BridgeQuoteRequest, ExchangeQuoteRequest, TransferFees } from "../ports";

/**
 * What the price book keeps, one table: each source's maximum age (a quote never uses an older
 * answer), what it is asked and answers, and how it is asked, within the vendor's shared budget where
 * it has one. Adding a source fails to compile until it has all of these (and docs/pricing.md its row).
 */
export type PriceSource = "circle_fees" | "route" | "mento";

const units = z
  .string()
  .regex(/^\d+$/)
  .transform((text) => BigInt(text));
const hex = z.string().regex(/^0x[0-9a-fA-F]+$/) as unknown as z.ZodType<`0x${string}`>;

const feesRequest = z.object({
  sourceDomain: z.number().int(),
  destinationDomain: z.number().int(),
  finalityThreshold: z.number().int(),
});
const feesAnswer = z.object({
  minimumFee: z.object({ numerator: units, denominator: units }),
  forwardFeeUsdc: units,
});

const routeRequest = z.object({
  fromChainId: z.number().int(),
  toChainId: z.number().int(),
  fromToken: hex,
  toToken: hex,
  fromAmount: units,
  fromAddress: hex,
  toAddress: hex,
  slippageBps: z.number().int(),
});
const routeAnswer = z.object({
  provider: z.string(),
  tool: z.string(),
  fromAmount: units,
  toAmount: units,
  toAmountMin: units,
  executionDurationSeconds: z.number(),
});

const mentoRequest = z.object({ tokenIn: hex, tokenOut: hex, amountIn: units });
const mentoAnswer = z.object({
  exchangeProvider: hex,
  exchangeId: hex,
  amountOut: units,
  maxAmountIn: units.optional(),
});

type RouteRequest = z.output<typeof routeRequest>;
export type RoutePrice = z.output<typeof routeAnswer>;
type MentoRequest = z.output<typeof mentoRequest>;
export type MentoPrice = z.output<typeof mentoAnswer>;

interface SourceDefinition<Request, Answer> {
  /** The oldest answer a quote may use, in milliseconds. */
  maxAgeMs: number;
  /** Where the answer comes from, for the docs and the operator. */
  asks: string;
  request: z.ZodType<Request, unknown>;
  answer: z.ZodType<Answer, unknown>;
  ask(ctx: SettlementServices, request: Request): Promise<Answer>;
}

interface SourceTypes {
  circle_fees: { request: z.output<typeof feesRequest>; answer: TransferFees };
  route: { request: RouteRequest; answer: RoutePrice };
  mento: { request: MentoRequest; answer: MentoPrice };
}

export type RequestOf<S extends PriceSource> = SourceTypes[S]["request"];
export type AnswerOf<S extends PriceSource> = SourceTypes[S]["answer"];

export const PRICE_SOURCES: { [S in PriceSource]: SourceDefinition<RequestOf<S>, AnswerOf<S>> } = {
  circle_fees: {
    maxAgeMs: 60_000,
    asks: "Circle's CCTP v2 fees for a route and speed (Iris `GET /v2/burn/USDC/fees/{source}/{destination}`)",
    request: feesRequest,
    answer: feesAnswer,
    ask: (ctx, request) =>
      callVendor(ctx, irisBudget(ctx), () => ctx.providers.pricing.fees.transferFees(request)),
  },
  route: {
    maxAgeMs: 15_000,
    asks: "the aggregator's route from USDC on the intermediate chain to USDm on the destination, at one amount of the grid (LI.FI `GET /v1/quote`)",
    request: routeRequest,
    answer: routeAnswer,
    ask: async (ctx, request) => {
      const quote = await callVendor(ctx, lifiQuoteBudget(ctx), () =>
        ctx.providers.pricing.bridge.quoteBridge(request satisfies BridgeQuoteRequest),
      );
      const { provider, tool, fromAmount, toAmount, toAmountMin, executionDurationSeconds } = quote;
      return { provider, tool, fromAmount, toAmount, toAmountMin, executionDurationSeconds };
    },
  },
  mento: {
    maxAgeMs: 10_000,
    asks: "Mento's USDm → COPm rate at one amount of the grid and its trading limits' headroom (Broker `getAmountOut`, `tradingLimitsConfig`/`tradingLimitsState`, BreakerBox trading mode)",
    request: mentoRequest,
    answer: mentoAnswer,
    ask: (ctx, request) =>
      ctx.providers.pricing.exchange.quoteExchange(request satisfies ExchangeQuoteRequest),
  },
};

/** A source's definite refusals, kept as answers for the same maximum age; `unavailable` is never kept. */
export const KEPT_REFUSALS: readonly ProviderFailureKind[] = [
  "no_route",
  "capacity_exceeded",
  "trading_halted",
];
