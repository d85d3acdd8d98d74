import { ProviderFailure } from "../../../kernel/provider-failure";
import type { SettlementServices } from "../../context";
import type { BridgeQuote, ExchangeQuote, PricingProviders } from "../ports";
import { gridAround, scaledOut } from "./amounts";
import { bookAnswer } from "./book";
import type { MentoPrice, RoutePrice } from "./sources";

/**
 * Settlement's prices from the book, in the shape of its pricing ports, so a quote and an order's
 * re-pricing read them as they read the vendors: Circle's fees per route and speed; the route and
 * Mento at an amount, from the entries at its two neighbours on the grid (amounts.ts). Only what
 * prices a quote reads the book; the legs that move money ask the vendors themselves.
 */
export function bookPricing(ctx: SettlementServices): PricingProviders {
  return {
    fees: { transferFees: (request) => bookAnswer(ctx, "circle_fees", request) },
    bridge: {
      async quoteBridge(request): Promise<BridgeQuote> {
        const { referrer: _unused, ...question } = request;
        const prices = await Promise.all(
          neighbours(request.fromAmount).map((fromAmount) =>
            bookAnswer(ctx, "route", { ...question, fromAmount }),
          ),
        );
        const first = prices[0] as RoutePrice;
        const scaled = (pick: (price: RoutePrice) => bigint) =>
          scaledOut(
            request.fromAmount,
            prices.map((price) => ({ at: price.fromAmount, out: pick(price) })),
          );
        return {
          provider: first.provider,
          tool: first.tool,
          fromAmount: request.fromAmount,
          toAmount: scaled((price) => price.toAmount),
          toAmountMin: scaled((price) => price.toAmountMin),
          executionDurationSeconds: Math.max(...prices.map((price) => price.executionDurationSeconds)),
        };
      },
    },
    exchange: {
      async quoteExchange(request): Promise<ExchangeQuote> {
        const [below, above] = neighbours(request.amountIn);
        const atBelow = await bookAnswer(ctx, "mento", { ...request, amountIn: below as bigint });
        // Above the trading limits' headroom the upper neighbour is refused: the lower one prices alone.
        const atAbove =
          above === undefined
            ? undefined
            : await bookAnswer(ctx, "mento", { ...request, amountIn: above }).catch((error: unknown) => {
                if (error instanceof ProviderFailure && error.kind === "capacity_exceeded") return undefined;
                throw error;
              });
        const prices: (MentoPrice & { amountIn: bigint })[] = [{ ...atBelow, amountIn: below as bigint }];
        if (atAbove && above !== undefined) prices.push({ ...atAbove, amountIn: above });
        // The lesser headroom of the two reads (a trade between them may have used some).
        let maxAmountIn: bigint | undefined;
        for (const { maxAmountIn: headroom } of prices) {
          if (headroom !== undefined && (maxAmountIn === undefined || headroom < maxAmountIn))
            maxAmountIn = headroom;
        }
        if (maxAmountIn !== undefined && request.amountIn > maxAmountIn) {
          throw new ProviderFailure(
            "capacity_exceeded",
            "mento",
            `the trade would exceed Mento's trading limits: at most ${maxAmountIn} of ${request.tokenIn} now`,
          );
        }
        return {
          exchangeProvider: atBelow.exchangeProvider,
          exchangeId: atBelow.exchangeId,
          amountOut: scaledOut(
            request.amountIn,
            prices.map((price) => ({ at: price.amountIn, out: price.amountOut })),
          ),
          ...(maxAmountIn === undefined ? {} : { maxAmountIn }),
        };
      },
    },
  };
}

/** The grid's amounts to price `amount` from: itself when it is on the grid, else its two neighbours. */
function neighbours(amount: bigint): bigint[] {
  const { below, above } = gridAround(amount);
  return below === above ? [below] : [below, above];
}
