import { ProviderFailure } from "../../kernel/provider-failure";
import type { RouteProvider } from "../../settlement/pricing-ports";
import type { RoutePlanner } from "../../settlement/route-planner";

/**
 * LI.FI: a fresh quote from the settlement account carries the transaction to send and the address
 * to approve for the USDC (`estimate.approvalAddress`; the transaction's target when it names none).
 */
export function lifiRoutePlanner(route: RouteProvider): RoutePlanner {
  return {
    async routeTransaction(request) {
      const quote = await route.quoteRoute({
        fromChainId: request.from.chainId,
        toChainId: request.to.chainId,
        fromToken: request.tokenIn,
        toToken: request.tokenOut,
        fromAmount: request.amountIn,
        fromAddress: request.account,
        toAddress: request.account,
        slippageBps: request.slippageBps,
      });
      const transaction = quote.transactionRequest;
      if (!transaction)
        throw new ProviderFailure("no_route", quote.provider, "the route quote carries no transaction");
      if (quote.toAmountMin < request.minAmountOut) {
        throw new ProviderFailure(
          "no_route",
          quote.provider,
          "the route now delivers less than the order needs",
        );
      }
      return {
        to: transaction.to,
        data: transaction.data,
        value: transaction.value,
        allowance: {
          token: request.tokenIn,
          spender: quote.approvalAddress ?? transaction.to,
          amount: request.amountIn,
        },
      };
    },
  };
}
