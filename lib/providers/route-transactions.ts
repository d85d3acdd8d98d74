import { encodeFunctionData, type Hex } from "viem";
import { erc20Abi } from "../chain/abis";
import type { ConfiguredChain } from "../chain/registry";
import { sandboxRouteRequestAbi } from "./sandbox-leg-abis";
import { ProviderFailure, type RouteProvider } from "./types";

/** One transaction the settlement account sends for the aggregator leg, in order. */
export interface RouteTransaction {
  purpose: "route-approve" | "route";
  to: Hex;
  data: Hex;
  value: bigint;
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

/** Builds the aggregator leg's transactions: approve what the route pulls, then the route itself. */
export interface RoutePlanner {
  routeTransactions(request: RouteTransactionsRequest): Promise<RouteTransaction[]>;
}

function approve(token: Hex, spender: Hex, amount: bigint): RouteTransaction {
  return {
    purpose: "route-approve",
    to: token,
    data: encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [spender, amount] }),
    value: 0n,
  };
}

/** The sandbox aggregator: the router on the intermediate chain; the relayer pays out on the destination. */
export function sandboxRoutePlanner(): RoutePlanner {
  return {
    async routeTransactions(request) {
      const router = request.from.contracts.router;
      if (!router)
        throw new ProviderFailure(
          "no_route",
          "sandbox-route",
          "the intermediate chain has no sandbox router",
        );
      return [
        approve(request.tokenIn, router, request.amountIn),
        {
          purpose: "route",
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
        },
      ];
    },
  };
}

/**
 * LI.FI: a fresh quote from the settlement account carries the transaction to send and the address
 * to approve for the USDC (`estimate.approvalAddress`; the transaction's target when it names none).
 */
export function lifiRoutePlanner(route: RouteProvider): RoutePlanner {
  return {
    async routeTransactions(request) {
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
      return [
        approve(request.tokenIn, quote.approvalAddress ?? transaction.to, request.amountIn),
        { purpose: "route", to: transaction.to, data: transaction.data, value: transaction.value },
      ];
    },
  };
}
