import { encodeFunctionData } from "viem";
import { ProviderFailure } from "../../kernel/provider-failure";
import type { RoutePlanner } from "../../settlement/route-planner";
import { sandboxRouteRequestAbi } from "./leg-abis";

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
            request.memo,
          ],
        }),
        value: 0n,
        allowance: { token: request.tokenIn, spender: router, amount: request.amountIn },
      };
    },
  };
}
