import { describe, expect, it } from "vitest";
import { BPS, FEE_BUFFER_BPS, ROUTE_SLIPPAGE_BPS } from "../../lib/settlement/limits";
import {
  copAmountMin,
  copPerUsdc,
  principalFee,
  upfrontFees,
  withinVariance,
} from "../../lib/settlement/pricing/arithmetic";

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
      const minimumFee = { numerator: next(1_500n), denominator: 1_000_000n }; // 0 to 15 bps, fractional
      const forwardFeeUsdc = next(1_000_001n); // up to 1 USDC
      const bufferBps = next(3_001n); // up to 30%
      const feeBps = Number(next(1_001n));
      const fees = upfrontFees(send, { minimumFee, forwardFeeUsdc }, bufferBps);
      const label = `case ${i}: send ${send}, fee ${minimumFee.numerator}/${minimumFee.denominator}, forward ${forwardFeeUsdc}, buffer ${bufferBps}`;
      const circleFeeOn = (total: bigint) =>
        (total * minimumFee.numerator + minimumFee.denominator - 1n) / minimumFee.denominator;
      const bufferOn = (quoted: bigint) => (quoted * bufferBps + BPS - 1n) / BPS;

      expect(fees.totalDebitUsdc, label).toBe(send + fees.transferUpfrontFeeUsdc);
      expect(fees.transferUpfrontFeeUsdc, label).toBe(
        fees.fastTransferFeeUsdc + fees.forwardingFeeUsdc + fees.feeBufferUsdc,
      );
      expect(fees.feeBufferUsdc, label).toBe(bufferOn(fees.fastTransferFeeUsdc + forwardFeeUsdc));
      // Circle's fee at the quoted terms is what the quote charges for it...
      const charged = circleFeeOn(fees.totalDebitUsdc) + forwardFeeUsdc;
      expect(charged <= fees.fastTransferFeeUsdc + forwardFeeUsdc, label).toBe(true);
      // ...so the mint covers the principal and keeps the buffer...
      expect(fees.totalDebitUsdc - charged >= send + fees.feeBufferUsdc, label).toBe(true);
      // ...and a fee up to the buffer higher still fits under maxFee (the upfront fee).
      expect(charged + bufferOn(charged) <= fees.transferUpfrontFeeUsdc, label).toBe(true);
      // One unit less of protocol fee would not have covered Circle's fee on its own total.
      if (fees.fastTransferFeeUsdc > 0n) {
        const less = fees.fastTransferFeeUsdc - 1n;
        const total = send + less + forwardFeeUsdc + bufferOn(less + forwardFeeUsdc);
        expect(circleFeeOn(total) > less, label).toBe(true);
      }

      const service = principalFee(send, feeBps);
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
      upfrontFees(
        100_000_000n,
        { minimumFee: { numerator: 0n, denominator: 1n }, forwardFeeUsdc: 0n },
        FEE_BUFFER_BPS,
      ),
    ).toEqual({
      fastTransferFeeUsdc: 0n,
      forwardingFeeUsdc: 0n,
      feeBufferUsdc: 0n,
      transferUpfrontFeeUsdc: 0n,
      totalDebitUsdc: 100_000_000n,
    });
  });

  it("prices a Standard transfer of 100 USDC with a 0.2 USDC forwarding fee and the 20% buffer to the unit", () => {
    expect(
      upfrontFees(
        100_000_000n,
        { minimumFee: { numerator: 0n, denominator: 1n }, forwardFeeUsdc: 200_000n },
        FEE_BUFFER_BPS,
      ),
    ).toEqual({
      fastTransferFeeUsdc: 0n,
      forwardingFeeUsdc: 200_000n,
      feeBufferUsdc: 40_000n,
      transferUpfrontFeeUsdc: 240_000n,
      totalDebitUsdc: 100_240_000n,
    });
  });

  it("prices a Fast transfer of 100 USDC at 1 bps with a 0.2 USDC forwarding fee and the buffer to the unit", () => {
    // 1 bps of the total 100.252032 is 0.0100252032, rounded up to 0.010026 USDC; the buffer is 20% of
    // 0.210026, rounded up to 0.042006; the total is 100 + 0.010026 + 0.2 + 0.042006.
    expect(
      upfrontFees(
        100_000_000n,
        { minimumFee: { numerator: 1n, denominator: 10_000n }, forwardFeeUsdc: 200_000n },
        FEE_BUFFER_BPS,
      ),
    ).toEqual({
      fastTransferFeeUsdc: 10_026n,
      forwardingFeeUsdc: 200_000n,
      feeBufferUsdc: 42_006n,
      transferUpfrontFeeUsdc: 252_032n,
      totalDebitUsdc: 100_252_032n,
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
