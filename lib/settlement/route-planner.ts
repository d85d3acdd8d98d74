import { encodeFunctionData, type Hex } from "viem";
import type { ConfiguredChain } from "../kernel/chain/registry";
import { ProviderFailure } from "../kernel/provider-failure";
import { sandboxRouteRequestAbi } from "../vendors/sandbox/leg-abis";
import type { RouteProvider } from "./pricing-ports";

/**
 * The transaction the settlement account sends for the aggregator leg, and the allowance it spends:
 * the account keeps one standing allowance per token and spender (recorded-transactions.ts), so a
 * route names what it needs instead of approving for itself.
 */
export interface RouteTransaction {
  to: Hex;
  data: Hex;
  value: bigint;
  allowance: { token: Hex; spender: Hex; amount: bigint };
}

export interface RouteTransactionsRequest {
  from: ConfiguredChain;
  to: ConfiguredChain;
  tokenIn: Hex;
  tokenOut: Hex;
  amountIn: bigint;
  account: Hex;
  minAmountOut: bigint;
  slippageBps: number;
}

/** Builds the aggregator leg's transaction and the allowance it pulls the USDC through. */
export interface RoutePlanner {
  routeTransaction(request: RouteTransactionsRequest): Promise<RouteTransaction>;
}

/** The sandbox aggregator: the router on the intermediate chain; the relayer pays out on the destination. */
export function sandboxRoutePlanner(): RoutePlanner {
  return {
    async routeTransaction(request) {
      const router = request.from.contracts.router;
      if (!router)
        throw new ProviderFailure(
          "no_route",
          "sandbox-route",
          "the intermediate chain has no sandbox router",
        );
      return {
        to: router,
        data: encodeFunctionData({
          abi: sandboxRouteRequestAbi,
          functionName: "route",
          args: [
            request.tokenIn,
            request.amountIn,
            BigInt(request.to.chainId),
            request.tokenOut,
            request.account,
            request.minAmountOut,
          ],
        }),
        value: 0n,
        allowance: { token: request.tokenIn, spender: router, amount: request.amountIn },
      };
    },
  };
}

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
