// A local route aggregator for development, tests and the rehearsal: LI.FI's quote and status API
// over the local chains, executing routes through its own router and relay receivers, and moving
// Mento's market for the test amounts `.76` and `.77`. The worker reaches it through its production
// adapters (lib/vendors/lifi) at LIFI_URL, as it reaches LI.FI in production.

import { createServer } from "node:http";
import { createPublicClient, type Hex, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { LegChain } from "../../lib/kernel/chain/leg-chain";
import type { ListenPort } from "../listen-port";
import { closeServer, listen, safeLogger } from "../loopback-http";
import { type VendorRateLimit, VendorRateLimiter } from "../vendor-rate-limit";
import { createLifiHandler } from "./http-api";
import { resetMentoBreaker, tripMentoBreaker } from "./mento-breaker";
import { exhaustMentoLimit, releaseMentoLimit } from "./mento-limit";
import { moveMentoRate, restoreMentoRate } from "./mento-rate";
import type { Carriage } from "./quotes";
import { Relayer } from "./relayer";

/** LI.FI's documented default with an API key: 100 requests a minute, until the minute resets. */
export const LIFI_RATE_LIMIT: VendorRateLimit = { requests: 100, windowMs: 60_000 };

interface LocalAggregatorChain {
  chainId: number;
  name: string;
  rpcUrl: string;
  contracts: {
    usdc?: Hex;
    usdt?: Hex;
    usdm?: Hex;
    /** A token Mento does not trade, which `.83` delivers instead of USDm. */
    bridgedUsdc?: Hex;
    copm?: Hex;
    broker?: Hex;
    exchangeProvider?: Hex;
    router?: Hex;
    relayReceiver?: Hex;
    tokenMessenger?: Hex;
  };
}

export interface LocalAggregatorOptions {
  /** Where settlements' burns leave (their test amounts), where routes leave, where they arrive. */
  chains: {
    sources: LocalAggregatorChain[];
    intermediate: LocalAggregatorChain;
    destination: LocalAggregatorChain;
  };
  /** The relayer: owner of the routers and relay receivers, it pays and refunds routes. */
  relayerKey: Hex;
  /** Mento's governance on the local destination chain (the broker's owner and oracle reporter). */
  marketKey: Hex;
  /** How long after a route's block the relayer pays (default 3 s). */
  relayDelayMs?: number;
  /** How long `.76` keeps Mento's limit exhausted and `.77` its rate moved (default 35 minutes). */
  slowLegMs?: number;
  /** Whether test amounts choose outcomes (default true; dev/test-amounts.ts). */
  testAmounts?: boolean;
  /** LI.FI's rate limit; none unless given (LIFI_RATE_LIMIT is LI.FI's). */
  rateLimit?: VendorRateLimit;
  /** How often the market moves back on its own (wall time); never unless given: then call tick(). */
  tickEveryMs?: number;
  now?: () => Date;
  port?: ListenPort;
  log?: (line: Record<string, unknown>) => void;
}

export interface LocalAggregator {
  url: string;
  relayer: Hex;
  /** The market moving on by the clock: Mento's limit freed after `.76`, its rate put back after `.77`. */
  tick(): Promise<void>;
  /**
   * The next route leaving this chain is refunded, as a bridge that gives up (for tests), less
   * `keepBps` of its input when given (a bridge that keeps its fee on a refund).
   */
  refundNextRoute(fromChainId: number, keepBps?: bigint): void;
  /** The next route leaving this chain fails; its refund is made on chain and never reported (tests). */
  failNextRouteSilently(fromChainId: number): void;
  /** How many quotes (`GET /v1/quote`) it was asked for since it started. */
  quotesAsked(): number;
  close(): Promise<void>;
}

const DEFAULT_RELAY_DELAY_MS = 3_000;
const DEFAULT_SLOW_LEG_MS = 35 * 60_000;

export async function startLocalAggregator(options: LocalAggregatorOptions): Promise<LocalAggregator> {
  const now = options.now ?? (() => new Date());
  const log = safeLogger(options.log);
  const slowLegMs = options.slowLegMs ?? DEFAULT_SLOW_LEG_MS;
  const relayer = privateKeyToAccount(options.relayerKey);
  const market = privateKeyToAccount(options.marketKey);
  const legOf = (chain: LocalAggregatorChain): LegChain => ({
    chainId: chain.chainId,
    name: chain.name,
    rpcUrl: chain.rpcUrl,
    contracts: chain.contracts,
    client: createPublicClient({ transport: http(chain.rpcUrl, { retryCount: 0 }), cacheTime: 0 }),
  });
  const sources = options.chains.sources.map(legOf);
  const intermediate = legOf(options.chains.intermediate);
  const destination = legOf(options.chains.destination);
  const carriages = carriagesOf(options.chains);
  const relay = new Relayer({
    chains: {
      byId: (chainId) => [...sources, intermediate, destination].find((chain) => chain.chainId === chainId),
      sources,
      ...(options.chains.destination.contracts.usdc
        ? { destinationUsdc: options.chains.destination.contracts.usdc }
        : {}),
      ...(options.chains.destination.contracts.usdt
        ? { destinationUsdt: options.chains.destination.contracts.usdt }
        : {}),
      ...(options.chains.destination.contracts.bridgedUsdc
        ? { destinationBridgedUsdc: options.chains.destination.contracts.bridgedUsdc }
        : {}),
    },
    carriages,
    relayer,
    relayDelayMs: options.relayDelayMs ?? DEFAULT_RELAY_DELAY_MS,
    slowLegMs,
    testAmounts: options.testAmounts ?? true,
    now,
    onPaid: async (outcome) => {
      if (outcome === "trading-limit") await exhaustMentoLimit(destination, market, slowLegMs);
      else if (outcome === "breaker-trips") await tripMentoBreaker(destination, market, slowLegMs);
      else await moveMentoRate(destination, market, slowLegMs);
    },
  });

  // One tick at a time, whether the timer or a caller asks.
  let ticking: Promise<void> = Promise.resolve();
  const tick = () => {
    const run = ticking
      .catch(() => {})
      .then(async () => {
        await relay.moveMarkets();
        await releaseMentoLimit(destination, market, now());
        await restoreMentoRate(destination, market, now(), slowLegMs);
        await resetMentoBreaker(destination, market, now());
      });
    ticking = run;
    return run;
  };

  const served = { quotes: 0 };
  const server = createServer(
    createLifiHandler({
      carriages,
      relayer: relay,
      limiter: new VendorRateLimiter(options.rateLimit, now),
      onRequest: () => relay.moveMarkets(),
      log,
      served,
    }),
  );
  const { url } = await listen(server, { port: options.port });
  let timer: ReturnType<typeof setInterval> | undefined;
  if (options.tickEveryMs) {
    timer = setInterval(() => {
      tick().catch((error: unknown) =>
        log({ level: "warn", msg: "local aggregator tick failed", error: String(error) }),
      );
    }, options.tickEveryMs);
    timer.unref();
  }
  return {
    url,
    relayer: relayer.address,
    tick,
    refundNextRoute: (fromChainId, keepBps) => relay.refundNextRoute(fromChainId, keepBps),
    failNextRouteSilently: (fromChainId) => relay.failNextRouteSilently(fromChainId),
    quotesAsked: () => served.quotes,
    close: async () => {
      clearInterval(timer);
      await ticking.catch(() => {});
      await closeServer(server);
    },
  };
}

/**
 * The ways the local aggregator carries: USDC on the intermediate chain to USDm on the destination
 * chain (a settlement's route), and USDm back to USDC (a return's way back), when the chains have
 * the router and relay receiver for it.
 */
function carriagesOf(chains: LocalAggregatorOptions["chains"]): Carriage[] {
  const { intermediate, destination } = chains;
  const carriages: Carriage[] = [];
  const [usdc, usdm] = [intermediate.contracts.usdc, destination.contracts.usdm];
  if (usdc && usdm && intermediate.contracts.router && destination.contracts.relayReceiver) {
    carriages.push({
      fromChainId: intermediate.chainId,
      toChainId: destination.chainId,
      tokenIn: usdc,
      tokenOut: usdm,
      router: intermediate.contracts.router,
      receiver: destination.contracts.relayReceiver,
      decimals: { from: 6, to: 18 },
      testAmounts: true,
    });
  }
  if (usdc && usdm && destination.contracts.router && intermediate.contracts.relayReceiver) {
    carriages.push({
      fromChainId: destination.chainId,
      toChainId: intermediate.chainId,
      tokenIn: usdm,
      tokenOut: usdc,
      router: destination.contracts.router,
      receiver: intermediate.contracts.relayReceiver,
      decimals: { from: 18, to: 6 },
      testAmounts: false,
    });
  }
  // A route `.83` paid in the bridge's wrapped USDC goes back to USDC the same way.
  const { bridgedUsdc } = destination.contracts;
  if (usdc && bridgedUsdc && destination.contracts.router && intermediate.contracts.relayReceiver) {
    carriages.push({
      fromChainId: destination.chainId,
      toChainId: intermediate.chainId,
      tokenIn: bridgedUsdc,
      tokenOut: usdc,
      router: destination.contracts.router,
      receiver: intermediate.contracts.relayReceiver,
      decimals: { from: 6, to: 6 },
      testAmounts: false,
    });
  }
  return carriages;
}
