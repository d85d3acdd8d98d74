import { decodeFunctionData } from "viem";
import { describe, expect, it } from "vitest";
import { erc20Abi } from "../../lib/chain/abis";
import type { ConfiguredChain } from "../../lib/chain/registry";
import { lifiRoutePlanner, sandboxRoutePlanner } from "../../lib/providers/route-transactions";
import { sandboxRouteRequestAbi } from "../../lib/providers/sandbox-leg-abis";
import { ProviderFailure, type RouteProvider, type RouteQuote } from "../../lib/providers/types";

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
  it("sandbox: approves the router for the amount, then asks it to route to the settlement account", async () => {
    const [approve, route] = await sandboxRoutePlanner().routeTransactions(request);
    expect(approve?.to).toBe(usdc);
    expect(decodeFunctionData({ abi: erc20Abi, data: approve?.data ?? "0x" }).args).toEqual([
      router,
      99_000_000n,
    ]);
    expect(route?.to).toBe(router);
    expect(decodeFunctionData({ abi: sandboxRouteRequestAbi, data: route?.data ?? "0x" }).args).toEqual([
      usdc,
      99_000_000n,
      31333n,
      usdm,
      account,
      95_000_000_000_000_000_000n,
    ]);
  });

  it("LI.FI: approves the quote's approval address, then sends its transaction as given", async () => {
    const diamond = "0x5555555555555555555555555555555555555555";
    const planner = lifiRoutePlanner(
      fixedQuote({
        approvalAddress: diamond,
        transactionRequest: { to: diamond, data: "0xabcdef", value: 0n },
      }),
    );
    const [approve, route] = await planner.routeTransactions(request);
    expect(decodeFunctionData({ abi: erc20Abi, data: approve?.data ?? "0x" }).args).toEqual([
      diamond,
      99_000_000n,
    ]);
    expect(route).toEqual({ purpose: "route", to: diamond, data: "0xabcdef", value: 0n });
  });

  it("LI.FI: refuses a quote without a transaction, or one now below what the order needs", async () => {
    await expect(lifiRoutePlanner(fixedQuote({})).routeTransactions(request)).rejects.toBeInstanceOf(
      ProviderFailure,
    );
    const low = lifiRoutePlanner(
      fixedQuote({ toAmountMin: 1n, transactionRequest: { to: router, data: "0x", value: 0n } }),
    );
    await expect(low.routeTransactions(request)).rejects.toMatchObject({ kind: "no_route" });
  });
});
