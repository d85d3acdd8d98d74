import { describe, expect, it } from "vitest";
import type { ChainDescriptor } from "../../lib/kernel/chain/profiles";
import { ProviderFailure } from "../../lib/kernel/provider-failure";
import type { RouteQuoteRequest } from "../../lib/settlement/pricing-ports";
import { fixedTransferFees } from "../../lib/vendors/sandbox/fixed-fees";
import { sandboxRoute, sandboxRouteLegsOf } from "../../lib/vendors/sandbox/route";

const USDC = "0x00000000000000000000000000000000000000a1";
const USDM = "0x00000000000000000000000000000000000000b2";
const OTHER = "0x00000000000000000000000000000000000000c3";
const ACCOUNT = "0x1111111111111111111111111111111111111111";

const LEG = {
  fromChainId: 31_338,
  fromToken: USDC,
  toChainId: 31_339,
  toToken: USDM,
  decimals: { from: 6, to: 18 },
} as const;
/** A return's way back: USDm on the destination chain to USDC on the intermediate chain. */
const BACK = {
  fromChainId: 31_339,
  fromToken: USDM,
  toChainId: 31_338,
  toToken: USDC,
  decimals: { from: 18, to: 6 },
} as const;

const REQUEST: RouteQuoteRequest = {
  fromChainId: 31_338,
  toChainId: 31_339,
  fromToken: USDC,
  toToken: USDM,
  fromAmount: 100_000_000n,
  fromAddress: ACCOUNT,
  toAddress: ACCOUNT,
  slippageBps: 300,
};

async function failureOf(attempt: Promise<unknown>): Promise<ProviderFailure> {
  const error = await attempt.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof ProviderFailure))
    throw new Error(`expected a ProviderFailure, got ${String(error)}`);
  return error;
}

describe("sandbox CCTP fees", () => {
  it("charges 1 bps Fast, 0 bps Standard and 0.2 USDC to forward by default, on every pair of domains", async () => {
    const fees = fixedTransferFees();
    const fast = { minimumFee: { numerator: 1n, denominator: 10_000n }, forwardFeeUsdc: 200_000n };
    const standard = { minimumFee: { numerator: 0n, denominator: 1n }, forwardFeeUsdc: 200_000n };
    expect(
      await fees.transferFees({ sourceDomain: 0, destinationDomain: 6, finalityThreshold: 1000 }),
    ).toEqual(fast);
    expect(
      await fees.transferFees({ sourceDomain: 3, destinationDomain: 1, finalityThreshold: 1000 }),
    ).toEqual(fast);
    expect(
      await fees.transferFees({ sourceDomain: 3, destinationDomain: 6, finalityThreshold: 2000 }),
    ).toEqual(standard);
  });

  it("takes fractional bps as exact fractions in lowest terms", async () => {
    const cases = [
      { fastFeeBps: "1.3", fastFee: { numerator: 13n, denominator: 100_000n } },
      { fastFeeBps: "0.5", fastFee: { numerator: 1n, denominator: 20_000n } },
      { fastFeeBps: "14", fastFee: { numerator: 7n, denominator: 5_000n } },
      { fastFeeBps: "0", fastFee: { numerator: 0n, denominator: 1n } },
    ];
    for (const { fastFeeBps, fastFee } of cases) {
      const fees = fixedTransferFees({ fastFeeBps, forwardFeeUsdc: 123n });
      expect(
        await fees.transferFees({ sourceDomain: 0, destinationDomain: 6, finalityThreshold: 1000 }),
      ).toEqual({
        minimumFee: fastFee,
        forwardFeeUsdc: 123n,
      });
    }
  });

  it("refuses figures that are not fees when it is made", () => {
    for (const fastFeeBps of ["", "one", "-1", "1,5", "0x10"]) {
      expect(() => fixedTransferFees({ fastFeeBps })).toThrow(RangeError);
    }
    expect(() => fixedTransferFees({ standardFeeBps: "-1" })).toThrow(RangeError);
    expect(() => fixedTransferFees({ forwardFeeUsdc: -1n })).toThrow(RangeError);
  });

  it("hands out copies, so a caller cannot change the next quote", async () => {
    const fees = fixedTransferFees();
    const ask = () => fees.transferFees({ sourceDomain: 0, destinationDomain: 6, finalityThreshold: 1000 });
    const first = await ask();
    first.minimumFee.numerator = 999n;
    expect((await ask()).minimumFee.numerator).toBe(1n);
  });
});

describe("sandbox route", () => {
  it("rescales USDC to USDm one to one less 10 bps, and allows the request's slippage", async () => {
    const quote = await sandboxRoute({ legs: [LEG] }).quoteRoute(REQUEST);
    // 100 USDC = 100 USDm; less 0.1% = 99.9 USDm; less 3% slippage = 96.903 USDm.
    expect(quote).toEqual({
      provider: "sandbox-route",
      tool: "sandbox-router",
      fromAmount: 100_000_000n,
      toAmount: 99_900_000_000_000_000_000n,
      toAmountMin: 96_903_000_000_000_000_000n,
      executionDurationSeconds: 5,
    });
    expect(quote.transactionRequest).toBeUndefined();
  });

  it("carries a return's way back, USDm to USDC, rescaled down and rounded down", async () => {
    const route = sandboxRoute({ legs: [LEG, BACK] });
    // 100.000000000000000001 USDm = 100 USDC (the 18-decimal dust rounds away); less 0.1% = 99.9 USDC.
    const quote = await route.quoteRoute({
      ...REQUEST,
      fromChainId: 31_339,
      toChainId: 31_338,
      fromToken: USDM,
      toToken: USDC,
      fromAmount: 100n * 10n ** 18n + 1n,
    });
    expect([quote.toAmount, quote.toAmountMin]).toEqual([99_900_000n, 96_903_000n]);
    // The way back is its own leg: without it, USDm to USDC has no route.
    const failure = await failureOf(
      sandboxRoute({ legs: [LEG] }).quoteRoute({
        ...REQUEST,
        fromChainId: 31_339,
        toChainId: 31_338,
        fromToken: USDM,
        toToken: USDC,
      }),
    );
    expect(failure.kind).toBe("no_route");
  });

  it("applies its cost and duration options to the last unit", async () => {
    const route = sandboxRoute({ legs: [LEG], costBps: 37, durationSeconds: 12 });
    // 1.234567 USDC → 1.234567e18 × 9963 / 10000 = 1.2299991021e18, then × 9999 / 10000. Rescaling
    // by 10^12 leaves room for both divisions, so the round-down never drops a unit here.
    const quote = await route.quoteRoute({ ...REQUEST, fromAmount: 1_234_567n, slippageBps: 1 });
    expect(quote.toAmount).toBe(1_229_999_102_100_000_000n);
    expect(quote.toAmountMin).toBe(1_229_876_102_189_790_000n);
    expect(quote.executionDurationSeconds).toBe(12);

    // The smallest USDC unit with nothing kept and no slippage is exactly 10^12 USDm units.
    const free = await sandboxRoute({ legs: [LEG], costBps: 0 }).quoteRoute({
      ...REQUEST,
      fromAmount: 1n,
      slippageBps: 0,
    });
    expect([free.toAmount, free.toAmountMin]).toEqual([10n ** 12n, 10n ** 12n]);
  });

  it("refuses tokens and chains it does not route, whatever their address case", async () => {
    const route = sandboxRoute({ legs: [LEG] });
    const refused: RouteQuoteRequest[] = [
      { ...REQUEST, fromToken: OTHER },
      { ...REQUEST, toToken: OTHER },
      { ...REQUEST, fromToken: USDM, toToken: USDC },
      { ...REQUEST, toChainId: 42_220 },
      { ...REQUEST, fromChainId: 31_339 },
    ];
    for (const request of refused) {
      const failure = await failureOf(route.quoteRoute(request));
      expect({ kind: failure.kind, provider: failure.provider }).toEqual({
        kind: "no_route",
        provider: "sandbox-route",
      });
    }
    const upper = { ...REQUEST, fromToken: USDC.replace("a1", "A1") as `0x${string}` };
    expect((await route.quoteRoute(upper)).toAmount).toBe(99_900_000_000_000_000_000n);
  });

  it("without legs, takes any cross-chain request but refuses a same-chain one", async () => {
    const route = sandboxRoute();
    expect((await route.quoteRoute({ ...REQUEST, fromToken: OTHER })).toAmount).toBe(
      99_900_000_000_000_000_000n,
    );
    const failure = await failureOf(route.quoteRoute({ ...REQUEST, toChainId: REQUEST.fromChainId }));
    expect(failure.kind).toBe("no_route");
  });

  it("finds its legs in a chain profile: USDC on the intermediate chain to USDm on the destination, and back", () => {
    const chains: ChainDescriptor[] = [
      { role: "source", chainId: 31_337, name: "source", confirmations: 1, contracts: { usdc: OTHER } },
      {
        role: "intermediate",
        chainId: 31_338,
        name: "intermediate",
        confirmations: 1,
        contracts: { usdc: USDC },
      },
      {
        role: "destination",
        chainId: 31_339,
        name: "destination",
        confirmations: 1,
        contracts: { usdm: USDM, usdc: OTHER },
      },
    ];
    expect(sandboxRouteLegsOf(chains)).toEqual([LEG, BACK]);
    expect(sandboxRouteLegsOf(chains.slice(0, 2))).toEqual([]);
  });

  it("refuses costs and slippage that are not whole basis points", async () => {
    expect(() => sandboxRoute({ costBps: 1.5 })).toThrow(RangeError);
    expect(() => sandboxRoute({ costBps: -1 })).toThrow(RangeError);
    await expect(
      sandboxRoute({ legs: [LEG] }).quoteRoute({ ...REQUEST, slippageBps: 10_001 }),
    ).rejects.toThrow(RangeError);
    await expect(sandboxRoute({ legs: [LEG] }).quoteRoute({ ...REQUEST, fromAmount: 0n })).rejects.toThrow(
      RangeError,
    );
  });
});
