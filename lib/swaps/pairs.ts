import type { TokenSymbol } from "../kernel/money";

/** The pairs spec 4.3 supports: USDT, USDC or USDm to COPm, and COPm to USDT. */
const SWAP_PAIRS: ReadonlyArray<readonly [TokenSymbol, TokenSymbol]> = [
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

/**
 * Bounds of `amountIn` per token, in its own value: from about a US cent to about 100,000 US
 * dollars. The dollar tokens count one to the dollar; COPm at a round 4,000 to the dollar (the rate
 * has stayed within 3,700 to 4,400 since 2023), so a swap's size means the same whichever way it goes.
 */
export const SWAP_AMOUNT_BOUNDS: Record<TokenSymbol, { min: string; max: string }> = {
  USDC: { min: "0.01", max: "100000" },
  USDT: { min: "0.01", max: "100000" },
  USDm: { min: "0.01", max: "100000" },
  COPm: { min: "40", max: "400000000" },
};
export const DEFAULT_SLIPPAGE_BPS = 50;
export const MAX_SLIPPAGE_BPS = 300;
/** How long a prepared swap's quote stands: its transaction must be mined by then. */
export const SWAP_INTENT_TTL_MS = 5 * 60_000;
