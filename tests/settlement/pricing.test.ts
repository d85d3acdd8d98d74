import { describe, expect, it } from "vitest";
import { BPS, ROUTE_SLIPPAGE_BPS } from "../../lib/settlement/limits";
import {
  copAmountMin,
  copPerUsdc,
  serviceFee,
  upfrontFees,
  withinVariance,
} from "../../lib/settlement/pricing";

/** A seeded generator, so a failure names a case that can be run again. */
function random(seed: number) {
  let state = seed >>> 0;
  return (below: bigint): bigint => {
    state = (Math.imul(state ^ (state >>> 15), 2246822507) + 3266489909) >>> 0;
    const high = BigInt(state);
    state = (Math.imul(state ^ (state >>> 13), 3266489909) + 2246822507) >>> 0;
    return ((high << 32n) | BigInt(state)) % below;
  };
}

describe("quote arithmetic", () => {
  it("recomputes every figure of 5,000 random quotes", () => {
    const next = random(20261122);
    for (let i = 0; i < 5_000; i++) {
      const send = 10_000_000n + next(990_000_001n); // 10 to 1,000 USDC
      const fastFee = { numerator: next(1_500n), denominator: 1_000_000n }; // 0 to 15 bps, fractional
      const forwardFeeUsdc = next(1_000_001n); // up to 1 USDC
      const feeBps = Number(next(1_001n));
      const fees = upfrontFees(send, { fastFee, forwardFeeUsdc });
      const label = `case ${i}: send ${send}, fee ${fastFee.numerator}/${fastFee.denominator}, forward ${forwardFeeUsdc}`;

      expect(fees.totalDebitUsdc, label).toBe(send + fees.transferUpfrontFeeUsdc);
      expect(fees.transferUpfrontFeeUsdc, label).toBe(fees.fastTransferFeeUsdc + fees.forwardingFeeUsdc);
      const charged =
        (fees.totalDebitUsdc * fastFee.numerator + fastFee.denominator - 1n) / fastFee.denominator;
      // What Circle mints to the settlement account covers the principal...
      expect(fees.totalDebitUsdc - charged - forwardFeeUsdc >= send, label).toBe(true);
      // ...and one unit less of fast fee would not have.
      if (fees.fastTransferFeeUsdc > 0n) {
        const smallerTotal = fees.totalDebitUsdc - 1n;
        const smallerCharge =
          (smallerTotal * fastFee.numerator + fastFee.denominator - 1n) / fastFee.denominator;
        expect(smallerTotal - smallerCharge - forwardFeeUsdc < send, label).toBe(true);
      }

      const service = serviceFee(send, feeBps);
      expect(service * BPS >= send * BigInt(feeBps), label).toBe(true);
      expect((service - 1n) * BPS < send * BigInt(feeBps), label).toBe(true);

      const expectedCop = next(10n ** 28n);
      const floor = copAmountMin(expectedCop);
      expect(floor * BPS <= expectedCop * (BPS - ROUTE_SLIPPAGE_BPS), label).toBe(true);
      expect((floor + 1n) * BPS > expectedCop * (BPS - ROUTE_SLIPPAGE_BPS), label).toBe(true);
    }
  });

  it("charges nothing on top when Circle charges nothing", () => {
    expect(
      upfrontFees(100_000_000n, { fastFee: { numerator: 0n, denominator: 1n }, forwardFeeUsdc: 0n }),
    ).toEqual({
      fastTransferFeeUsdc: 0n,
      forwardingFeeUsdc: 0n,
      transferUpfrontFeeUsdc: 0n,
      totalDebitUsdc: 100_000_000n,
    });
  });

  it("prices 100 USDC at 1 bps with a 0.2 USDC forwarding fee to the unit", () => {
    // 1 bps of 100.210022 is 0.010021002, rounded up to 0.010022 USDC.
    expect(
      upfrontFees(100_000_000n, {
        fastFee: { numerator: 1n, denominator: 10_000n },
        forwardFeeUsdc: 200_000n,
      }),
    ).toEqual({
      fastTransferFeeUsdc: 10_022n,
      forwardingFeeUsdc: 200_000n,
      transferUpfrontFeeUsdc: 210_022n,
      totalDebitUsdc: 100_210_022n,
    });
  });

  it("shows the rate as COP per USDC, rounded down", () => {
    expect(copPerUsdc(389_025n * 10n ** 18n, 100_000_000n)).toBe("3890.25");
    expect(copPerUsdc(1n * 10n ** 18n, 3_000_000n)).toBe("0.333333");
  });

  it("allows a re-priced route up to exactly 4% worse and refuses anything past it", () => {
    expect(withinVariance(10_000n, 9_600n)).toBe(true);
    expect(withinVariance(10_000n, 9_599n)).toBe(false);
    expect(withinVariance(10_000n, 12_000n)).toBe(true);
  });
});
