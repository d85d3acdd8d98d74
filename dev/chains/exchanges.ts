import { encodePacked, type Hex, keccak256 } from "viem";
import { SANDBOX_TOKENS, type SandboxTokenKey } from "./tokens";
import type { ExchangePair, SandboxRates, TradingLimitConfig } from "./types";

/** 18-decimal fixed point one. */
export const WAD = 10n ** 18n;

/** About the market in 2025: 1 USDm = 3,900 COPm; 1 USDC = 1 USDT = 1 USDm; 0.25% spread. */
export const DEFAULT_RATES: SandboxRates = {
  copmPerUsdm: 3_900n * WAD,
  spread: 25n * 10n ** 14n,
};

/**
 * Generous limits on the USDm side of every exchange, all three kinds on: 10 million USDm net per
 * 5 minutes, 50 million per day, 100 million for the life of the chain.
 */
export const DEFAULT_TRADING_LIMIT: TradingLimitConfig = {
  timestep0: 300,
  timestep1: 86_400,
  limit0: 10_000_000,
  limit1: 50_000_000,
  limitGlobal: 100_000_000,
  flags: 1 | 2 | 4,
};

/** Mento's pools on Celo: COPm, USDC and USDT each trade against USDm (asset0); the rest routes via USDm. */
/** The tokens Mento trades in the sandbox: every sandbox token but the bridge's wrapped USDC. */
type MentoTokenKey = Exclude<SandboxTokenKey, "axlusdc">;

export const SANDBOX_EXCHANGES: Record<ExchangePair, { asset0: MentoTokenKey; asset1: MentoTokenKey }> = {
  "USDm/COPm": { asset0: "usdm", asset1: "copm" },
  "USDm/USDC": { asset0: "usdm", asset1: "usdc" },
  "USDm/USDT": { asset0: "usdm", asset1: "usdt" },
};

export const EXCHANGE_PAIRS = Object.keys(SANDBOX_EXCHANGES) as ExchangePair[];

/** The pricing module of every sandbox pool, by the name Mento's BiPoolManager reads from it. */
const SANDBOX_PRICING_MODULE = "ConstantSum";

/** The exchange id Mento's BiPoolManager derives: keccak256 of asset0's symbol, asset1's and the pricing module's name. */
export function exchangeIdOf(pair: ExchangePair): Hex {
  const { asset0, asset1 } = SANDBOX_EXCHANGES[pair];
  return keccak256(
    encodePacked(
      ["string", "string", "string"],
      [SANDBOX_TOKENS[asset0].symbol, SANDBOX_TOKENS[asset1].symbol, SANDBOX_PRICING_MODULE],
    ),
  );
}

/** The rate of a pair: whole asset1 per whole asset0, 18-decimal fixed point. */
export function rateOf(pair: ExchangePair, rates: SandboxRates): bigint {
  return pair === "USDm/COPm" ? rates.copmPerUsdm : WAD;
}

/** Mento's key for one token's limit inside an exchange: exchangeId XOR the token address. */
export function tradingLimitIdOf(exchangeId: Hex, token: Hex): Hex {
  const id = BigInt(exchangeId) ^ BigInt(token);
  return `0x${id.toString(16).padStart(64, "0")}`;
}
