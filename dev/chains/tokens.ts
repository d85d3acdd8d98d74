/** The sandbox tokens, with the decimals of their production counterparts. */
export const SANDBOX_TOKENS = {
  usdc: { name: "USD Coin", symbol: "USDC", decimals: 6 },
  usdt: { name: "Tether USD", symbol: "USDT", decimals: 6 },
  usdm: { name: "Mento Dollar", symbol: "USDm", decimals: 18 },
  copm: { name: "Mento Colombian Peso", symbol: "COPm", decimals: 18 },
  // A bridge's own wrapped USDC on the destination chain, which Mento does not trade: what a route
  // delivers instead of USDm under `.83` (Squid and Axelar routes deliver it on Celo).
  axlusdc: { name: "Axelar Wrapped USDC", symbol: "axlUSDC", decimals: 6 },
} as const;

export type SandboxTokenKey = keyof typeof SANDBOX_TOKENS;

/** Largest USDC burn one CCTP deposit may make on the sandbox messengers: 1,000,000,000 USDC. */
export const USDC_BURN_LIMIT_PER_MESSAGE = 1_000_000_000n * 10n ** 6n;
