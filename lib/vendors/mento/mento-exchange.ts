import type { PublicClient } from "viem";
import { erc20Abi, mentoBrokerAbi } from "../../kernel/chain/abis";
import { chainUnavailable, revertReasonOf } from "../../kernel/chain/failure";
import { withinDeadline } from "../../kernel/deadline";
import { DEFAULT_PROVIDER_TIMEOUT_MS, ProviderFailure } from "../../kernel/provider-failure";
import type { ExchangeProvider, ExchangeQuote, ExchangeQuoteRequest } from "../../settlement";
import { type MentoDirectory, mentoBreakerBoxAbi, TRADING_MODE_BIDIRECTIONAL } from "./mento-exchanges";
import {
  type TradingLimitBreach,
  type TradingLimitConfig,
  type TradingLimitState,
  tradingLimitBreach,
  tradingLimitHeadroom,
} from "./mento-trading-limits";

const PROVIDER = "mento";

type Address = `0x${string}`;

export interface MentoExchangeOptions {
  client: PublicClient;
  /**
   * A fresh client for one quote's reads, which it sends as one JSON-RPC batch (registry's
   * batchingClientOf); the shared `client` when absent.
   */
  quoteClient?: () => PublicClient;
  broker: Address;
  /** Where the exchanges are found: the Broker's providers, read on chain (mentoDirectory). */
  directory: MentoDirectory;
  timeoutMs?: number;
}

/**
 * Mento quotes through the Broker, checking what the Broker's swap would check: the exchange that
 * trades the pair directly (USDm → COPm needs no hop), found on chain; its pool's rate feed open to
 * trading in the BreakerBox (a tripped breaker halts `swapIn` while `getAmountOut` still prices);
 * `getAmountOut`; and the trading limits the Broker would apply to the trade, read from
 * `tradingLimitsConfig` / `tradingLimitsState` and replayed at the latest block's time. The same
 * adapter serves live Celo and the sandbox broker, which keeps Mento's signatures and semantics.
 */
export function mentoExchange(options: MentoExchangeOptions): ExchangeProvider {
  const { client, broker } = options;
  const timeoutMs = options.timeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS;
  const decimalsOf = tokenDecimalsCache(client);

  async function amountOutOf(
    reads: PublicClient,
    exchange: { exchangeProvider: Address; exchangeId: Address },
    request: ExchangeQuoteRequest,
  ): Promise<bigint> {
    try {
      return await reads.readContract({
        address: broker,
        abi: mentoBrokerAbi,
        functionName: "getAmountOut",
        args: [
          exchange.exchangeProvider,
          exchange.exchangeId,
          request.tokenIn,
          request.tokenOut,
          request.amountIn,
        ],
      });
    } catch (error) {
      // A revert is Mento refusing to price this trade (no pool, trading halted, too large for
      // the bucket); anything else is the chain not answering.
      const reason = revertReasonOf(error);
      if (reason === undefined) throw chainUnavailable(PROVIDER, error);
      throw new ProviderFailure("no_route", PROVIDER, `Mento will not price this trade: ${reason}`, {
        cause: error,
      });
    }
  }

  async function limitOf(reads: PublicClient, exchangeId: Address, token: Address) {
    const limitId = tradingLimitIdOf(exchangeId, token);
    const [config, state] = await Promise.all([
      reads.readContract({
        address: broker,
        abi: mentoBrokerAbi,
        functionName: "tradingLimitsConfig",
        args: [limitId],
      }),
      reads.readContract({
        address: broker,
        abi: mentoBrokerAbi,
        functionName: "tradingLimitsState",
        args: [limitId],
      }),
    ]);
    return { config: configOf(config), state: stateOf(state) };
  }

  /** The first trading limit the trade would break for one of its two tokens, if any. */
  async function breachOf(
    token: Address,
    flow: bigint,
    limit: { config: TradingLimitConfig; state: TradingLimitState },
    now: bigint,
  ): Promise<(TradingLimitBreach & { token: Address }) | undefined> {
    if (limit.config.flags === 0) return undefined;
    const breach = tradingLimitBreach(limit.config, limit.state, flow, await decimalsOf(token), now);
    return breach && { ...breach, token };
  }

  /**
   * The most tokenIn the limits take now: tokenIn's own headroom, and tokenOut's at this trade's
   * rate (rounded down, so a trade within it passes both).
   */
  async function headroomIn(
    request: ExchangeQuoteRequest,
    amountOut: bigint,
    limitIn: { config: TradingLimitConfig; state: TradingLimitState },
    limitOut: { config: TradingLimitConfig; state: TradingLimitState },
    now: bigint,
  ): Promise<bigint | undefined> {
    const [decimalsIn, decimalsOut] = await Promise.all([
      decimalsOf(request.tokenIn),
      decimalsOf(request.tokenOut),
    ]);
    const inward = tradingLimitHeadroom(limitIn.config, limitIn.state, "in", decimalsIn, now);
    const outward = tradingLimitHeadroom(limitOut.config, limitOut.state, "out", decimalsOut, now);
    const outwardIn = outward === undefined ? undefined : (outward * request.amountIn) / amountOut;
    if (inward === undefined) return outwardIn;
    return outwardIn === undefined || inward < outwardIn ? inward : outwardIn;
  }

  return {
    async quoteExchange(request): Promise<ExchangeQuote> {
      if (request.amountIn <= 0n) throw new RangeError(`amountIn must be positive, got ${request.amountIn}`);

      try {
        return await withinDeadline(PROVIDER, timeoutMs, async () => {
          const exchange = await options.directory.exchangeFor(request.tokenIn, request.tokenOut);
          const { exchangeProvider, exchangeId } = exchange;
          // One quote's seven reads, as one JSON-RPC batch when a quote client is given.
          const reads = options.quoteClient?.() ?? client;
          // Read together; a halted pool's price may revert, so the halt is looked at first.
          const [mode, priced, limitIn, limitOut, block] = await Promise.all([
            reads.readContract({
              address: exchange.breakerBox,
              abi: mentoBreakerBoxAbi,
              functionName: "getRateFeedTradingMode",
              args: [exchange.referenceRateFeedId],
            }),
            amountOutOf(reads, exchange, request).then(
              (amount) => ({ amount }),
              (error: unknown) => ({ error }),
            ),
            limitOf(reads, exchangeId, request.tokenIn),
            limitOf(reads, exchangeId, request.tokenOut),
            reads.getBlock({ blockTag: "latest" }),
          ]);
          if (mode !== TRADING_MODE_BIDIRECTIONAL) {
            // The Broker would revert "Trading is suspended for this reference rate": it frees when
            // the breaker cools down and resets, so the order waits; it is not the absence of a route.
            throw new ProviderFailure(
              "trading_halted",
              PROVIDER,
              `Mento's BreakerBox halts trading on rate feed ${exchange.referenceRateFeedId} (trading mode ${mode})`,
            );
          }
          if ("error" in priced) throw priced.error;
          const amountOut = priced.amount;
          if (amountOut === 0n) {
            throw new ProviderFailure(
              "no_route",
              PROVIDER,
              `Mento prices ${request.amountIn} of ${request.tokenIn} at nothing`,
            );
          }
          // As the Broker does: what comes in adds to tokenIn's netflow, what goes out subtracts from tokenOut's.
          const breaches = await Promise.all([
            breachOf(request.tokenIn, request.amountIn, limitIn, block.timestamp),
            breachOf(request.tokenOut, -amountOut, limitOut, block.timestamp),
          ]);
          const breach = breaches.find((candidate) => candidate !== undefined);
          if (breach) {
            throw new ProviderFailure(
              "capacity_exceeded",
              PROVIDER,
              `the trade would exceed Mento's ${breach.limit} trading limit on ${breach.token}: netflow ${breach.netflow} whole units against ±${breach.bound}`,
            );
          }
          const maxAmountIn = await headroomIn(request, amountOut, limitIn, limitOut, block.timestamp);
          return {
            exchangeProvider,
            exchangeId,
            amountOut,
            ...(maxAmountIn === undefined ? {} : { maxAmountIn }),
          };
        });
      } catch (error) {
        throw chainUnavailable(PROVIDER, error);
      }
    },
  };
}

/** Mento's key of a token's limit within an exchange: exchangeId XOR bytes32(uint256(uint160(token))). */
export function tradingLimitIdOf(exchangeId: Address, token: Address): Address {
  return `0x${(BigInt(exchangeId) ^ BigInt(token)).toString(16).padStart(64, "0")}`;
}

function configOf([timestep0, timestep1, limit0, limit1, limitGlobal, flags]: readonly [
  number,
  number,
  number,
  number,
  number,
  number,
]): TradingLimitConfig {
  return {
    timestep0: BigInt(timestep0),
    timestep1: BigInt(timestep1),
    limit0: BigInt(limit0),
    limit1: BigInt(limit1),
    limitGlobal: BigInt(limitGlobal),
    flags,
  };
}

function stateOf([lastUpdated0, lastUpdated1, netflow0, netflow1, netflowGlobal]: readonly [
  number,
  number,
  number,
  number,
  number,
]): TradingLimitState {
  return {
    lastUpdated0: BigInt(lastUpdated0),
    lastUpdated1: BigInt(lastUpdated1),
    netflow0: BigInt(netflow0),
    netflow1: BigInt(netflow1),
    netflowGlobal: BigInt(netflowGlobal),
  };
}

/** Token decimals never change, so each is read once; a failed read is forgotten and retried. */
function tokenDecimalsCache(client: PublicClient): (token: Address) => Promise<number> {
  const known = new Map<string, Promise<number>>();
  return (token) => {
    const key = token.toLowerCase();
    let decimals = known.get(key);
    if (!decimals) {
      decimals = client.readContract({ address: token, abi: erc20Abi, functionName: "decimals" });
      known.set(key, decimals);
      decimals.catch(() => known.delete(key));
    }
    return decimals;
  };
}
