/**
 * The amounts the book prices an amount-dependent source at: 1, 2 and 5 × 10^k atomic units. Any
 * amount lies between two neighbours (or is one), so a few entries serve every amount, and keystroke
 * quotes of a growing amount reuse them.
 */
export function gridAround(amount: bigint): { below: bigint; above: bigint } {
  if (amount < 1n) throw new RangeError(`an amount to price must be positive, got ${amount}`);
  let decade = 1n;
  while (decade * 10n <= amount) decade *= 10n;
  const steps = [decade, 2n * decade, 5n * decade, 10n * decade];
  const below = [...steps].reverse().find((step) => step <= amount) ?? decade;
  const above = steps.find((step) => step >= amount) ?? 10n * decade;
  return { below, above };
}

/**
 * `amount`'s output scaled from a neighbour's price (`outAt` for `at`), rounded down; the lesser of
 * the two neighbours', since either may overstate: a route with a fixed cost prices a larger amount
 * better per unit (so scaling the lower neighbour up understates), a pool with price impact prices it
 * worse (so scaling the upper one down understates). A linear price gives the same from both.
 */
export function scaledOut(amount: bigint, prices: readonly { at: bigint; out: bigint }[]): bigint {
  let least: bigint | undefined;
  for (const { at, out } of prices) {
    const scaled = (out * amount) / at;
    if (least === undefined || scaled < least) least = scaled;
  }
  if (least === undefined) throw new RangeError("no price to scale from");
  return least;
}
