import { z } from "zod";
import { bpsAsDecimalText } from "../../kernel/basis-points";
import { ProviderFailure } from "../../kernel/provider-failure";
import type { BridgeProvider, BridgeQuote, BridgeQuoteRequest } from "../../settlement";
import { excerpt, type HttpAnswer } from "../common/http-get";
import { LIFI_PROVIDER, type LifiHttpOptions, lifiGetter, lifiRateLimited } from "./lifi-http";

const PROVIDER = LIFI_PROVIDER;

/** LI.FI's API error code for "no quote for this transfer" (docs.li.fi/api-reference/error-codes). */
const LIFI_NO_QUOTE_ERROR = 1002;

export interface LifiQuoteOptions extends LifiHttpOptions {
  /** Who LI.FI attributes the volume (and any integrator fee) to. */
  integrator?: string;
}

/**
 * Routes priced by LI.FI: `GET /v1/quote` with the documented query (docs.li.fi "Requesting a
 * Quote"; `@lifi/types` Step) answers one step whose `estimate` holds toAmount, toAmountMin and
 * executionDuration and whose `transactionRequest` is what the sender signs. No route is HTTP 404
 * with `{ message, code: 1002 }` (NoQuoteError) and the tools' reasons.
 */
export function lifiQuote(options: LifiQuoteOptions = {}): BridgeProvider {
  const get = lifiGetter(options);
  const now = options.now ?? (() => new Date());
  return {
    async quoteBridge(request) {
      const answer = await get("/v1/quote", quoteQuery(request, options.integrator));
      if (answer.status === 429) throw lifiRateLimited(answer, now(), "quotes");
      if (answer.status !== 200) throw refusal(answer);
      return readQuote(answer.body, request);
    },
  };
}

function quoteQuery(request: BridgeQuoteRequest, integrator: string | undefined): URLSearchParams {
  if (request.fromAmount <= 0n)
    throw new RangeError(`fromAmount must be positive, got ${request.fromAmount}`);
  const query = new URLSearchParams({
    fromChain: String(request.fromChainId),
    toChain: String(request.toChainId),
    fromToken: request.fromToken,
    toToken: request.toToken,
    fromAmount: request.fromAmount.toString(),
    fromAddress: request.fromAddress,
    toAddress: request.toAddress,
    // LI.FI takes slippage as a fraction: 0.03 is 3%.
    slippage: bpsAsDecimalText(request.slippageBps),
  });
  if (integrator) query.set("integrator", integrator);
  if (request.referrer) query.set("referrer", request.referrer);
  return query;
}

const lifiErrorSchema = z.object({ code: z.number().optional(), message: z.string().optional() });

/** A non-200 answer: no route when LI.FI says so clearly, unavailable otherwise (limits, outages, our keys). */
function refusal(answer: HttpAnswer): ProviderFailure {
  const parsed = lifiErrorSchema.safeParse(parseJsonOrUndefined(answer.body));
  const error = parsed.success ? parsed.data : {};
  const said = error.message ?? excerpt(answer.body);
  if (answer.status === 404 || error.code === LIFI_NO_QUOTE_ERROR) {
    return new ProviderFailure("no_route", PROVIDER, `LI.FI has no route: ${said}`);
  }
  const code = error.code === undefined ? "" : ` (code ${error.code})`;
  return new ProviderFailure("unavailable", PROVIDER, `LI.FI answered HTTP ${answer.status}${code}: ${said}`);
}

const units = z
  .string()
  .regex(/^\d+$/)
  .transform((text) => BigInt(text));
const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/) as unknown as z.ZodType<`0x${string}`>;
const calldata = z.string().regex(/^0x(?:[0-9a-fA-F]{2})*$/) as unknown as z.ZodType<`0x${string}`>;

const lifiQuoteSchema = z.object({
  tool: z.string().min(1),
  estimate: z.object({
    fromAmount: units,
    toAmount: units,
    toAmountMin: units,
    /** Seconds. */
    executionDuration: z.number().finite().nonnegative(),
    /** The contract the sender must approve to pull the input token (LI.FI's `estimate.approvalAddress`). */
    approvalAddress: address.optional(),
  }),
  transactionRequest: z
    .object({
      to: address,
      data: calldata,
      // Hex ("0x0") in LI.FI's answers; decimal text is accepted too.
      value: z
        .string()
        .regex(/^(?:0x[0-9a-fA-F]+|\d+)$/)
        .transform((text) => BigInt(text)),
    })
    .optional(),
});

function readQuote(body: string, request: BridgeQuoteRequest): BridgeQuote {
  const parsed = lifiQuoteSchema.safeParse(parseJsonOrUndefined(body));
  if (!parsed.success) {
    throw new ProviderFailure(
      "unavailable",
      PROVIDER,
      `LI.FI answered an unreadable quote: ${excerpt(body)}`,
      {
        cause: parsed.error,
      },
    );
  }
  const { tool, estimate, transactionRequest } = parsed.data;
  // A quote for another amount, or promising less than its own minimum, prices nothing we asked.
  if (estimate.fromAmount !== request.fromAmount || estimate.toAmountMin > estimate.toAmount) {
    throw new ProviderFailure(
      "unavailable",
      PROVIDER,
      `LI.FI answered an inconsistent quote: from ${estimate.fromAmount} (asked ${request.fromAmount}), to ${estimate.toAmount}, min ${estimate.toAmountMin}`,
    );
  }
  return {
    provider: PROVIDER,
    tool,
    fromAmount: estimate.fromAmount,
    toAmount: estimate.toAmount,
    toAmountMin: estimate.toAmountMin,
    executionDurationSeconds: Math.ceil(estimate.executionDuration),
    ...(transactionRequest ? { transactionRequest } : {}),
    ...(estimate.approvalAddress ? { approvalAddress: estimate.approvalAddress } : {}),
  };
}

function parseJsonOrUndefined(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}
