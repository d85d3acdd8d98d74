/**
 * Money: bigint atomic units inside, decimal strings outside, never a JS number. One parser and
 * one formatter, so every amount in and out of the API follows the same rules.
 */
export const TOKEN_DECIMALS = { USDC: 6, USDT: 6, USDm: 18, COPm: 18 } as const;
export type TokenSymbol = keyof typeof TOKEN_DECIMALS;
export const TOKEN_SYMBOLS = Object.keys(TOKEN_DECIMALS) as TokenSymbol[];

const DECIMAL = /^(0|[1-9]\d{0,59})(?:\.(\d+))?$/;

export type ParsedAmount =
  | { ok: true; units: bigint }
  | { ok: false; problem: "not_a_decimal" | "too_many_decimals" | "not_positive" };

/** A positive decimal string with at most `decimals` places, as atomic units. Exact or refused. */
export function parseAmount(text: string, decimals: number): ParsedAmount {
  const match = DECIMAL.exec(text);
  if (!match) return { ok: false, problem: "not_a_decimal" };
  const [, whole = "0", fraction = ""] = match;
  if (fraction.length > decimals) return { ok: false, problem: "too_many_decimals" };
  const units = BigInt(whole) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, "0") || "0");
  if (units <= 0n) return { ok: false, problem: "not_positive" };
  return { ok: true, units };
}

/** Atomic units of a decimal amount the code itself writes down (a limit, a default); throws on a malformed one. */
export function constantUnits(text: string, decimals: number): bigint {
  const parsed = parseAmount(text, decimals);
  if (!parsed.ok) throw new Error(`not an amount with ${decimals} decimals: ${text}`);
  return parsed.units;
}

/**
 * A decimal string as people read it, digits untouched (never through a float): `1234567.5` is
 * `1,234,567.5` in English and `1.234.567,5` in Spanish (Colombian usage).
 */
export function groupedDecimal(value: string, language: "en" | "es" = "en"): string {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(value);
  if (!match) return value;
  const [, sign = "", whole = "", fraction] = match;
  const [group, point] = language === "es" ? [".", ","] : [",", "."];
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, group);
  return `${sign}${grouped}${fraction ? `${point}${fraction}` : ""}`;
}

/** The reason a text is not an amount of a token with `decimals` places, for an error message. */
export function amountRule(decimals: number): string {
  return `must be a positive decimal string with at most ${decimals} decimal places`;
}

/** Atomic units as a decimal string with no trailing zeros ("12.5", "10", "0.000001"). */
export function formatAmount(units: bigint, decimals: number): string {
  // The point placed in the digits' text, not by bigint division: a page of orders formats thousands
  // of amounts, and this is a third of the division's cost.
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(decimals + 1, "0");
  const point = digits.length - decimals;
  let end = digits.length;
  while (end > point && digits.charCodeAt(end - 1) === 48 /* "0" */) end--;
  const fraction = end > point ? `.${digits.slice(point, end)}` : "";
  return `${negative ? "-" : ""}${digits.slice(0, point)}${fraction}`;
}

/** Units of `amount` scaled from one token's decimals to another's, rounding down. */
export function rescale(amount: bigint, fromDecimals: number, toDecimals: number): bigint {
  if (toDecimals >= fromDecimals) return amount * 10n ** BigInt(toDecimals - fromDecimals);
  return amount / 10n ** BigInt(fromDecimals - toDecimals);
}

/** a·b/c rounded up: fees, so rounding never costs the service. */
export function mulDivUp(a: bigint, b: bigint, c: bigint): bigint {
  return (a * b + c - 1n) / c;
}

/** a·b/c rounded down: guaranteed minimums, so a promise is never more than can be kept. */
export function mulDivDown(a: bigint, b: bigint, c: bigint): bigint {
  return (a * b) / c;
}
