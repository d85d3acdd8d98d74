import type { TokenSymbol } from "../money";

/** The pairs spec 4.3 supports: USDT, USDC or USDm to COPm, and COPm to USDT. */
export const SWAP_PAIRS: ReadonlyArray<readonly [TokenSymbol, TokenSymbol]> = [
  ["USDT", "COPm"],
  ["USDC", "COPm"],
  ["USDm", "COPm"],
  ["COPm", "USDT"],
];

/** The hops of a pair on Mento: USDm ↔ COPm is direct; the others go through USDm. */
export function hopsOf(
  tokenIn: TokenSymbol,
  tokenOut: TokenSymbol,
): Array<[TokenSymbol, TokenSymbol]> | undefined {
  if (!SWAP_PAIRS.some(([a, b]) => a === tokenIn && b === tokenOut)) return undefined;
  if (tokenIn === "USDm" || tokenOut === "USDm") return [[tokenIn, tokenOut]];
  return [
    [tokenIn, "USDm"],
    ["USDm", tokenOut],
  ];
}

/** Bounds of `amountIn`, in whole tokens: from a cent's worth to 100,000 (the service's rule). */
export const SWAP_MIN_WHOLE_CENTS = 1n; // 0.01 of a token
export const SWAP_MAX_WHOLE = 100_000n;
export const DEFAULT_SLIPPAGE_BPS = 50;
export const MAX_SLIPPAGE_BPS = 300;
/** How long a prepared swap's quote stands. */
export const SWAP_INTENT_TTL_MS = 5 * 60_000;
