import { describe, expect, it } from "vitest";
import { type Fraction, parseDecimalFraction } from "../../lib/kernel/decimal-fraction";
import { TOKEN_DECIMALS } from "../../lib/kernel/money";
import type { BrebToken } from "../../lib/payouts/breb-provider";
import { effectiveRate, pricePayout, rateDisplay } from "../../lib/payouts/pricing";

/** A small seeded generator (mulberry32), so a failure names the case that can be run again. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const integer = (low: number, high: number) => BigInt(low + Math.floor(next() * (high - low + 1)));
  return { integer };
}

const fraction = (text: string): Fraction => {
  const parsed = parseDecimalFraction(text);
  if (!parsed) throw new Error(text);
  return parsed;
};

describe("payout pricing", () => {
  it("over 5,000 random payouts and rates: the recipient gets destinationCop after the provider's fee with the least deposit that does, the service fee is 1% rounded up, the minimum is 2 USDC's worth", () => {
    const seed = 20261123;
    const { integer } = random(seed);
    for (let i = 0; i < 5_000; i++) {
      const token: BrebToken = i % 2 === 0 ? "USDC" : "COPm";
      const destinationCop = integer(4_000, 11_500_000);
      // COP per USD between 3,000 and 5,000 with up to 6 decimals; COPm between 0.9 and 1.1 COP.
      const copPerUsd = fraction(`${integer(3_000_000_000, 5_000_000_000)}e-6`);
      const copPerUnit = token === "USDC" ? copPerUsd : fraction(`${integer(900_000, 1_100_000)}e-6`);
      const serviceFeeBps = i % 5 === 0 ? integer(0, 1_000) : 100n;
      const partnerFeeBps = i % 3 === 0 ? integer(0, 100) : 0n;
      const price = pricePayout({
        token,
        destinationCop,
        copPerUnit,
        copPerUsd,
        serviceFeeBps,
        partnerFeeBps,
      });
      const scale = 10n ** BigInt(TOKEN_DECIMALS[token]);
      const at = `case ${i} (seed ${seed}): ${token} ${destinationCop} COP at ${copPerUnit.numerator}/${copPerUnit.denominator}`;

      // COP value of n atomic units after the provider keeps ⌈0.5 %⌉ of them, compared with
      // destinationCop exactly: (n − ⌈n·50/10 000⌉) · rate.num  vs  destinationCop · scale · rate.den.
      const providerFee = (n: bigint) => (n * 50n + 9_999n) / 10_000n;
      const afterProviderFee = (n: bigint) => (n - providerFee(n)) * copPerUnit.numerator;
      const owed = destinationCop * scale * copPerUnit.denominator;
      expect(afterProviderFee(price.providerAmount) >= owed, at).toBe(true);
      expect(afterProviderFee(price.providerAmount - 1n) < owed, at).toBe(true);

      expect(price.serviceFee * 10_000n >= price.providerAmount * serviceFeeBps, at).toBe(true);
      expect(
        (price.serviceFee - 1n) * 10_000n < price.providerAmount * serviceFeeBps || price.serviceFee === 0n,
        at,
      ).toBe(true);
      // The organization's own fee rounds like the service's; the user pays all three.
      expect(price.partnerFee * 10_000n >= price.providerAmount * partnerFeeBps, at).toBe(true);
      expect(
        (price.partnerFee - 1n) * 10_000n < price.providerAmount * partnerFeeBps || price.partnerFee === 0n,
        at,
      ).toBe(true);
      expect(price.sourceAmount, at).toBe(price.providerAmount + price.serviceFee + price.partnerFee);
      expect(price.providerDeveloperFee * 10_000n >= price.providerAmount * 50n, at).toBe(true);
      expect((price.providerDeveloperFee - 1n) * 10_000n < price.providerAmount * 50n, at).toBe(true);

      // The minimum is worth at least 2 USD, and one unit less is not.
      const usdValue = (n: bigint) => n * copPerUnit.numerator * copPerUsd.denominator;
      const twoUsd = 2n * scale * copPerUsd.numerator * copPerUnit.denominator;
      expect(usdValue(price.providerMinimum) >= twoUsd, at).toBe(true);
      expect(usdValue(price.providerMinimum - 1n) < twoUsd, at).toBe(true);
    }
  });

  it("prices the worked example of docs/payouts.md to the unit", () => {
    const price = pricePayout({
      token: "USDC",
      destinationCop: 100_000n,
      copPerUnit: fraction("3912.45"),
      copPerUsd: fraction("3912.45"),
      partnerFeeBps: 0n,
      serviceFeeBps: 100n,
    });
    // 100,000 / (3,912.45 × 0.995) = 25.687871 42… USDC, but 25.687872 less its fee rounded up
    // (0.128440) is worth 99,999.9997 COP: one unit more, 25.687873, keeps 25.559433 = 100,000.0036 COP.
    // Service fee 1 % of it: 0.256878 73 → 0.256879.
    expect(price).toEqual({
      providerAmount: 25_687_873n,
      providerDeveloperFee: 128_440n,
      serviceFee: 256_879n,
      partnerFee: 0n,
      sourceAmount: 25_944_752n,
      providerMinimum: 2_000_000n,
    });
    // 100,000 COP / 25.944752 USDC = 3,854.344 030… COP per USDC, all fees in.
    expect(effectiveRate(100_000n, price.sourceAmount, "USDC")).toBe("3854.34403");
  });

  it("shows the USD rate with thousands separators and two decimals, rounding half up", () => {
    expect(rateDisplay(fraction("3912.45"))).toBe("1 USD = 3,912.45 COP");
    expect(rateDisplay(fraction("3912.455"))).toBe("1 USD = 3,912.46 COP");
    expect(rateDisplay(fraction("3912.4549"))).toBe("1 USD = 3,912.45 COP");
    expect(rateDisplay(fraction("12345678"))).toBe("1 USD = 12,345,678.00 COP");
    expect(rateDisplay(fraction("999.999"))).toBe("1 USD = 1,000.00 COP");
  });
});
