import { describe, expect, it } from "vitest";
import { bpsAsDecimalText, bpsTextAsFraction } from "../../lib/kernel/basis-points";
import { ceilFraction, parseDecimalFraction } from "../../lib/kernel/decimal-fraction";
import { parseJsonKeepingNumberText } from "../../lib/kernel/exact-json";

describe("exact decimals for provider figures", () => {
  it("reads decimal text as an exact fraction, exponents included", () => {
    expect(parseDecimalFraction("1.3")).toEqual({ numerator: 13n, denominator: 10n });
    expect(parseDecimalFraction("1.30")).toEqual({ numerator: 13n, denominator: 10n });
    expect(parseDecimalFraction("0.1")).toEqual({ numerator: 1n, denominator: 10n });
    expect(parseDecimalFraction("2e-3")).toEqual({ numerator: 1n, denominator: 500n });
    expect(parseDecimalFraction("1.5E+2")).toEqual({ numerator: 150n, denominator: 1n });
    expect(parseDecimalFraction("0")).toEqual({ numerator: 0n, denominator: 1n });
    expect(parseDecimalFraction("9007199254740993")).toEqual({
      numerator: 9_007_199_254_740_993n,
      denominator: 1n,
    });
  });

  it("refuses what is not a non-negative decimal, and absurd exponents", () => {
    for (const text of ["", "-1", "1.", ".5", "1,5", "0x10", "NaN", "Infinity", "1e999", "one"]) {
      expect(parseDecimalFraction(text)).toBeUndefined();
    }
  });

  it("rounds a fraction up", () => {
    expect(ceilFraction({ numerator: 7n, denominator: 2n })).toBe(4n);
    expect(ceilFraction({ numerator: 8n, denominator: 2n })).toBe(4n);
    expect(ceilFraction({ numerator: 0n, denominator: 1n })).toBe(0n);
  });

  it("turns bps text into the fraction of an amount, and whole bps into the aggregator's fraction", () => {
    expect(bpsTextAsFraction("1.3")).toEqual({ numerator: 13n, denominator: 100_000n });
    expect(bpsTextAsFraction("2")).toEqual({ numerator: 1n, denominator: 5_000n });
    expect(bpsTextAsFraction("x")).toBeUndefined();
    const decimals = [0, 1, 5, 50, 300, 1_234, 10_000].map(bpsAsDecimalText);
    expect(decimals).toEqual(["0", "0.0001", "0.0005", "0.005", "0.03", "0.1234", "1"]);
    expect(() => bpsAsDecimalText(0.5)).toThrow(RangeError);
    expect(() => bpsAsDecimalText(-1)).toThrow(RangeError);
  });

  it("parses JSON keeping each number as the text written", () => {
    expect(
      parseJsonKeepingNumberText(`[{"fee":1.30,"big":9007199254740993,"tiny":1e-7,"name":"x"}]`),
    ).toEqual([{ fee: "1.30", big: "9007199254740993", tiny: "1e-7", name: "x" }]);
    expect(() => parseJsonKeepingNumberText("[1,")).toThrow(SyntaxError);
  });
});
