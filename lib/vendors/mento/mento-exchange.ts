import type { PublicClient } from "viem";
import { erc20Abi, mentoBrokerAbi } from "../../kernel/chain/abis";
import { chainUnavailable, revertReasonOf } from "../../kernel/chain/failure";
import { withinDeadline } from "../../kernel/deadline";
import { DEFAULT_PROVIDER_TIMEOUT_MS, ProviderFailure } from "../../kernel/provider-failure";
import type { ExchangeProvider, ExchangeQuote, ExchangeQuoteRequest } from "../../settlement/pricing-ports";
import type { MentoExchange } from "./mento-exchanges";
import {
  type TradingLimitBreach,
  type TradingLimitConfig,
  type TradingLimitState,
  tradingLimitBreach,
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
  exchangeProvider: Address;
  /** The exchanges to quote on, from configuration or `mentoExchangesOf`. */
  exchanges: readonly MentoExchange[];
  timeoutMs?: number;
}

/**
 * Mento quotes through the Broker: the exchange that trades the pair directly (USDm → COPm needs no
 * hop), its `getAmountOut`, and the trading limits the Broker would apply to the trade, read from
 * `tradingLimitsConfig` / `tradingLimitsState` and replayed at the latest block's time. The same
 * adapter serves live Celo and the sandbox broker, which keeps Mento's signatures and semantics.
 */
export function mentoExchange(options: MentoExchangeOptions): ExchangeProvider {
  const { client, broker, exchangeProvider } = options;
  const timeoutMs = options.timeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS;
  const decimalsOf = tokenDecimalsCache(client);

  async function amountOutOf(
    reads: PublicClient,
    exchangeId: Address,
    request: ExchangeQuoteRequest,
  ): Promise<bigint> {
    try {
      return await reads.readContract({
        address: broker,
        abi: mentoBrokerAbi,
        functionName: "getAmountOut",
        args: [exchangeProvider, exchangeId, request.tokenIn, request.tokenOut, request.amountIn],
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

  return {
    async quoteExchange(request): Promise<ExchangeQuote> {
      if (request.amountIn <= 0n) throw new RangeError(`amountIn must be positive, got ${request.amountIn}`);
      const exchange = exchangeFor(options.exchanges, request.tokenIn, request.tokenOut);
      const { exchangeId } = exchange;

      try {
        return await withinDeadline(PROVIDER, timeoutMs, async () => {
          // One quote's six reads, as one JSON-RPC batch when a quote client is given.
          const reads = options.quoteClient?.() ?? client;
          const [amountOut, limitIn, limitOut, block] = await Promise.all([
            amountOutOf(reads, exchangeId, request),
            limitOf(reads, exchangeId, request.tokenIn),
            limitOf(reads, exchangeId, request.tokenOut),
            reads.getBlock({ blockTag: "latest" }),
          ]);
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
          return { exchangeProvider, exchangeId, amountOut };
        });
      } catch (error) {
        throw chainUnavailable(PROVIDER, error);
      }
    },
  };
}

/** The exchange trading exactly this pair; Mento prices either direction of a pool. */
function exchangeFor(
  exchanges: readonly MentoExchange[],
  tokenIn: Address,
  tokenOut: Address,
): MentoExchange {
  const [wantedIn, wantedOut] = [tokenIn.toLowerCase(), tokenOut.toLowerCase()];
  const exchange =
    wantedIn === wantedOut
      ? undefined
      : exchanges.find(({ tokens }) => {
          const traded = tokens.map((token) => token.toLowerCase());
          return traded.includes(wantedIn) && traded.includes(wantedOut);
        });
  if (!exchange) {
    throw new ProviderFailure("no_route", PROVIDER, `no Mento exchange trades ${tokenIn} for ${tokenOut}`);
  }
  return exchange;
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
