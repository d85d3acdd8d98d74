import { describe, expect, it } from "vitest";
import type { ConfiguredChain } from "../../lib/kernel/chain/registry";
import { ProviderFailure } from "../../lib/kernel/provider-failure";
import type { BridgeProvider, BridgeQuote, BridgeQuoteRequest } from "../../lib/settlement/pricing/ports";
import { LIFI_QUOTE_VALIDITY_MS, lifiBridgePlanner } from "../../lib/vendors/lifi/bridge-planner";

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

function fixedQuote(quote: Partial<BridgeQuote>, asked: BridgeQuoteRequest[] = []): BridgeProvider {
  return {
    quoteBridge: async (request) => {
      asked.push(request);
      return answer(request);
    },
  };
  function answer(asked: BridgeQuoteRequest): BridgeQuote {
    return {
      provider: "lifi",
      tool: "test",
      fromAmount: asked.fromAmount,
      toAmount: 98_000_000_000_000_000_000n,
      toAmountMin: 96_000_000_000_000_000_000n,
      executionDurationSeconds: 30,
      ...quote,
    };
  }
}

describe("route transactions", () => {
  it("LI.FI: needs an allowance for the quote's approval address, sends its transaction as given, good for LI.FI's 60 s", async () => {
    const diamond = "0x5555555555555555555555555555555555555555";
    const asked: BridgeQuoteRequest[] = [];
    const quotedAt = new Date("2026-11-27T12:00:00Z");
    const planner = lifiBridgePlanner(
      fixedQuote(
        {
          approvalAddress: diamond,
          transactionRequest: { to: diamond, data: "0xabcdef", value: 0n },
        },
        asked,
      ),
      () => quotedAt,
    );
    const route = await planner.routeTransaction(request);
    expect(route).toEqual({
      to: diamond,
      data: "0xabcdef",
      value: 0n,
      allowance: { token: usdc, spender: diamond, amount: 99_000_000n },
      validUntil: new Date(quotedAt.getTime() + LIFI_QUOTE_VALIDITY_MS),
    });
    // The order's commitment travels as LI.FI's referrer: its first 20 bytes, as an address.
    expect(asked[0]?.referrer?.toLowerCase()).toBe(request.memo.slice(0, 42));
  });

  it("LI.FI: refuses a quote without a transaction, or one now below what the order needs", async () => {
    await expect(lifiBridgePlanner(fixedQuote({})).routeTransaction(request)).rejects.toBeInstanceOf(
      ProviderFailure,
    );
    const low = lifiBridgePlanner(
      fixedQuote({ toAmountMin: 1n, transactionRequest: { to: router, data: "0x", value: 0n } }),
    );
    await expect(low.routeTransaction(request)).rejects.toMatchObject({ kind: "no_route" });
  });
});
