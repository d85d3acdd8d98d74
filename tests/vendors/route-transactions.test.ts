import { decodeFunctionData } from "viem";
import { describe, expect, it } from "vitest";
import type { ConfiguredChain } from "../../lib/kernel/chain/registry";
import { ProviderFailure } from "../../lib/kernel/provider-failure";
import type { RouteProvider, RouteQuote } from "../../lib/settlement/pricing-ports";
import { lifiRoutePlanner } from "../../lib/vendors/lifi/route-planner";
import { sandboxRouteRequestAbi } from "../../lib/vendors/sandbox/leg-abis";
import { sandboxRoutePlanner } from "../../lib/vendors/sandbox/route-planner";

const usdc = "0x1111111111111111111111111111111111111111";
const usdm = "0x2222222222222222222222222222222222222222";
const account = "0x3333333333333333333333333333333333333333";
const router = "0x4444444444444444444444444444444444444444";
const chain = (chainId: number, contracts: Record<string, string>) =>
  ({ chainId, contracts }) as unknown as ConfiguredChain;
const request = {
  from: chain(31332, { usdc, router }),
  to: chain(31333, { usdm }),
  tokenIn: usdc,
  tokenOut: usdm,
  amountIn: 99_000_000n,
  account,
  minAmountOut: 95_000_000_000_000_000_000n,
  slippageBps: 300,
  memo: `0x${"c0".repeat(32)}`,
} as const;

function fixedQuote(quote: Partial<RouteQuote>): RouteProvider {
  return {
    quoteRoute: async (asked) => ({
      provider: "lifi",
      tool: "test",
      fromAmount: asked.fromAmount,
      toAmount: 98_000_000_000_000_000_000n,
      toAmountMin: 96_000_000_000_000_000_000n,
      executionDurationSeconds: 30,
      ...quote,
    }),
  };
}

describe("route transactions", () => {
  it("sandbox: needs an allowance of the amount for the router, and asks it to route to the settlement account", async () => {
    const route = await sandboxRoutePlanner().routeTransaction(request);
    expect(route.allowance).toEqual({ token: usdc, spender: router, amount: 99_000_000n });
    expect(route.to).toBe(router);
    expect(decodeFunctionData({ abi: sandboxRouteRequestAbi, data: route.data }).args).toEqual([
      usdc,
      99_000_000n,
      31333n,
      usdm,
      account,
      95_000_000_000_000_000_000n,
      request.memo,
    ]);
  });

  it("LI.FI: needs an allowance for the quote's approval address, and sends its transaction as given", async () => {
    const diamond = "0x5555555555555555555555555555555555555555";
    const planner = lifiRoutePlanner(
      fixedQuote({
        approvalAddress: diamond,
        transactionRequest: { to: diamond, data: "0xabcdef", value: 0n },
      }),
    );
    const route = await planner.routeTransaction(request);
    expect(route).toEqual({
      to: diamond,
      data: "0xabcdef",
      value: 0n,
      allowance: { token: usdc, spender: diamond, amount: 99_000_000n },
    });
  });

  it("LI.FI: refuses a quote without a transaction, or one now below what the order needs", async () => {
    await expect(lifiRoutePlanner(fixedQuote({})).routeTransaction(request)).rejects.toBeInstanceOf(
      ProviderFailure,
    );
    const low = lifiRoutePlanner(
      fixedQuote({ toAmountMin: 1n, transactionRequest: { to: router, data: "0x", value: 0n } }),
    );
    await expect(low.routeTransaction(request)).rejects.toMatchObject({ kind: "no_route" });
  });
});
