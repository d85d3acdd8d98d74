/** A non-negative exact ratio of two integers, kept in lowest terms. */
export interface Fraction {
  numerator: bigint;
  denominator: bigint;
}

/** A non-negative decimal as JSON writes it: digits, an optional fraction, an optional exponent. */
const DECIMAL = /^(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/** Exponents beyond this are no fee or amount a provider means; refusing them bounds the bigints. */
const MAX_EXPONENT = 40;

/**
 * The exact value of a decimal text as a fraction ("1.3" → 13/10, "2e-3" → 1/500), computed on the
 * digits, never through a float. Undefined when the text is not a non-negative decimal.
 */
export function parseDecimalFraction(text: string): Fraction | undefined {
  const match = DECIMAL.exec(text.trim());
  if (!match) return undefined;
  const [, whole = "", fraction = "", exponentText = "0"] = match;
  const writtenExponent = Number.parseInt(exponentText, 10);
  if (Math.abs(writtenExponent) > MAX_EXPONENT) return undefined;
  const exponent = writtenExponent - fraction.length;
  const digits = BigInt(whole + fraction);
  return exponent >= 0
    ? reduce(digits * 10n ** BigInt(exponent), 1n)
    : reduce(digits, 10n ** BigInt(-exponent));
}

/** a/b in lowest terms. */
export function reduce(numerator: bigint, denominator: bigint): Fraction {
  const divisor = gcd(numerator, denominator);
  return { numerator: numerator / divisor, denominator: denominator / divisor };
}

/** The smallest integer not below the fraction: fees round against the service's loss. */
export function ceilFraction({ numerator, denominator }: Fraction): bigint {
  return (numerator + denominator - 1n) / denominator;
}

function gcd(a: bigint, b: bigint): bigint {
  let [x, y] = [a < 0n ? -a : a, b < 0n ? -b : b];
  while (y !== 0n) [x, y] = [y, x % y];
  return x === 0n ? 1n : x;
}
