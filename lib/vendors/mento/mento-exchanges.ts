import { type PublicClient, parseAbi } from "viem";
import { chainUnavailable } from "../../kernel/chain/failure";
import { withinDeadline } from "../../kernel/deadline";
import { DEFAULT_PROVIDER_TIMEOUT_MS, ProviderFailure } from "../../kernel/provider-failure";

const PROVIDER = "mento";

type Address = `0x${string}`;

/** One Mento exchange: the provider that runs it, its id, the two tokens it trades and its rate feed. */
export interface MentoExchange {
  exchangeProvider: Address;
  exchangeId: Address;
  tokens: readonly [Address, Address];
  /** The oracle rate feed the pool prices from, whose trading mode the BreakerBox keeps. */
  referenceRateFeedId: Address;
  /** The BreakerBox that can halt the pool (its provider's `breakerBox()`). */
  breakerBox: Address;
}

/** The Broker's list of exchange providers (mento-core IBroker). */
const mentoBrokerDirectoryAbi = parseAbi(["function getExchangeProviders() view returns (address[])"]);

/**
 * Mento's IExchangeProvider listing, and what BiPoolManager (every provider the Broker lists on
 * Celo) adds: each pool's configuration, whose reference rate feed the BreakerBox halts.
 */
const mentoExchangeProviderAbi = parseAbi([
  "struct Exchange { bytes32 exchangeId; address[] assets; }",
  "function getExchanges() view returns (Exchange[] exchanges)",
  "struct Fraction { uint256 value; }",
  "struct PoolConfig { Fraction spread; address referenceRateFeedID; uint256 referenceRateResetFrequency; uint256 minimumReports; uint256 stablePoolResetSize; }",
  "struct PoolExchange { address asset0; address asset1; address pricingModule; uint256 bucket0; uint256 bucket1; uint256 lastBucketUpdate; PoolConfig config; }",
  "function getPoolExchange(bytes32 exchangeId) view returns (PoolExchange exchange)",
  "function breakerBox() view returns (address)",
]);

/** mento-core BreakerBox: 0 is bidirectional trading; anything else (a tripped breaker, governance) refuses swaps. */
export const mentoBreakerBoxAbi = parseAbi([
  "function getRateFeedTradingMode(address rateFeedID) view returns (uint8)",
]);

export const TRADING_MODE_BIDIRECTIONAL = 0;

/**
 * The exchanges the Broker trades through, found on chain the way Mento's SDK finds them: the
 * Broker's `getExchangeProviders()`, then each provider's `getExchanges()`. A BiPoolManager exchange
 * has two assets; any other entry is skipped, and so is a provider that cannot say which rate feed
 * and BreakerBox guard its pools (the service never trades a pool it cannot check for a halt).
 */
export async function mentoExchangesOf(
  client: PublicClient,
  broker: Address,
  options: { timeoutMs?: number } = {},
): Promise<MentoExchange[]> {
  try {
    return await withinDeadline(PROVIDER, options.timeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS, async () => {
      const providers = await client.readContract({
        address: broker,
        abi: mentoBrokerDirectoryAbi,
        functionName: "getExchangeProviders",
      });
      const listed = await Promise.all(providers.map((provider) => exchangesOfProvider(client, provider)));
      return listed.flat();
    });
  } catch (error) {
    throw chainUnavailable(PROVIDER, error);
  }
}

async function exchangesOfProvider(
  client: PublicClient,
  exchangeProvider: Address,
): Promise<MentoExchange[]> {
  const read = <T>(functionName: string, args: readonly unknown[] = []) =>
    client.readContract({
      address: exchangeProvider,
      abi: mentoExchangeProviderAbi,
      functionName,
      args,
    } as never) as Promise<T>;
  const [listed, breakerBox] = await Promise.all([
    read<readonly { exchangeId: Address; assets: readonly Address[] }[]>("getExchanges"),
    read<Address>("breakerBox").catch(() => undefined),
  ]);
  if (!breakerBox) return [];
  const pairs = listed.flatMap(({ exchangeId, assets }) => {
    const [first, second, ...rest] = assets;
    return first && second && rest.length === 0 ? [{ exchangeId, tokens: [first, second] as const }] : [];
  });
  return Promise.all(
    pairs.map(async (pair) => {
      const pool = await read<{ config: { referenceRateFeedID: Address } }>("getPoolExchange", [
        pair.exchangeId,
      ]);
      return { exchangeProvider, ...pair, referenceRateFeedId: pool.config.referenceRateFeedID, breakerBox };
    }),
  );
}

export interface MentoDirectoryOptions {
  client: PublicClient;
  broker: Address;
  /** How long a listing is kept before it is read again (default 10 minutes: governance lists pools rarely). */
  ttlMs?: number;
  /** The clock the listing's age is measured on, in ms. */
  now?: () => number;
  timeoutMs?: number;
}

/** Mento's exchanges, read once and kept for `ttlMs`; one read at a time, a failed read kept for nobody. */
export interface MentoDirectory {
  exchanges(): Promise<readonly MentoExchange[]>;
  /** The exchange trading exactly this pair (either direction), or no_route. */
  exchangeFor(tokenIn: Address, tokenOut: Address): Promise<MentoExchange>;
}

const MENTO_DIRECTORY_TTL_MS = 10 * 60_000;

export function mentoDirectory(options: MentoDirectoryOptions): MentoDirectory {
  const ttlMs = options.ttlMs ?? MENTO_DIRECTORY_TTL_MS;
  const now = options.now ?? Date.now;
  let cached: { at: number; listing: Promise<MentoExchange[]> } | undefined;

  function exchanges(): Promise<MentoExchange[]> {
    if (cached && now() - cached.at < ttlMs) return cached.listing;
    const listing = mentoExchangesOf(options.client, options.broker, { timeoutMs: options.timeoutMs });
    const entry = { at: now(), listing };
    cached = entry;
    listing.catch(() => {
      if (cached === entry) cached = undefined;
    });
    return listing;
  }

  return {
    exchanges,
    async exchangeFor(tokenIn, tokenOut) {
      const [wantedIn, wantedOut] = [tokenIn.toLowerCase(), tokenOut.toLowerCase()];
      const exchange =
        wantedIn === wantedOut
          ? undefined
          : (await exchanges()).find(({ tokens }) => {
              const traded = tokens.map((token) => token.toLowerCase());
              return traded.includes(wantedIn) && traded.includes(wantedOut);
            });
      if (!exchange) {
        throw new ProviderFailure(
          "no_route",
          PROVIDER,
          `no Mento exchange trades ${tokenIn} for ${tokenOut}`,
        );
      }
      return exchange;
    },
  };
}
