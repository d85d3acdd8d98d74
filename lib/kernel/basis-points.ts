import { type Fraction, parseDecimalFraction, reduce } from "./decimal-fraction";

export const BPS_PER_UNIT = 10_000n;

/**
 * A fee given in basis points as decimal text ("1", "1.3") as the exact fraction of an amount it
 * takes: "1.3" bps → 13/100000. Undefined when the text is not a non-negative decimal.
 */
export function bpsTextAsFraction(bps: string): Fraction | undefined {
  const value = parseDecimalFraction(bps);
  return value && reduce(value.numerator, value.denominator * BPS_PER_UNIT);
}

/** Whole basis points from 0 to 10,000 as a bigint; anything else is a caller's mistake. */
function wholeBps(bps: number, what: string): bigint {
  if (!Number.isInteger(bps) || bps < 0 || bps > 10_000) {
    throw new RangeError(`${what} must be a whole number of basis points from 0 to 10000, got ${bps}`);
  }
  return BigInt(bps);
}

/** Whole basis points as the decimal fraction aggregators take (300 → "0.03", 5 → "0.0005"). */
export function bpsAsDecimalText(bps: number): string {
  const units = wholeBps(bps, "slippage");
  const whole = units / BPS_PER_UNIT;
  const fraction = (units % BPS_PER_UNIT).toString().padStart(4, "0").replace(/0+$/, "");
  return fraction ? `${whole}.${fraction}` : `${whole}`;
}
