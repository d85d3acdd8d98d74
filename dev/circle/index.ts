// A local Circle for development, tests and the rehearsal: Iris (attestations, fees, re-attestation,
// its rate limit) and the Forwarding Service, over the local chains. The worker reaches it through
// its production adapters (lib/vendors/circle) at IRIS_URL, as it reaches Circle in production.

import { createServer } from "node:http";
import { createPublicClient, type Hex, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { ListenPort } from "../listen-port";
import { closeServer, listen, safeLogger } from "../loopback-http";
import { type VendorRateLimit, VendorRateLimiter } from "../vendor-rate-limit";
import { Attester } from "./attester";
import { checkedFees, DEFAULT_CIRCLE_FEES, type LocalCircleFees } from "./fees";
import { createIrisHandler } from "./http-api";

export { DEFAULT_CIRCLE_FEES, feeExecutedOf } from "./fees";

/** Circle's documented limit: 35 requests a second, then every request refused for five minutes. */
export const IRIS_RATE_LIMIT: VendorRateLimit = { requests: 35, windowMs: 1000, blockMs: 5 * 60_000 };

interface LocalCircleChain {
  chainId: number;
  name: string;
  rpcUrl: string;
  cctpDomain: number;
  tokenMessenger: Hex;
  messageTransmitter: Hex;
}

export interface LocalCircleOptions {
  /** Every CCTP chain of the local universe (burns leave and mint on any of them). */
  chains: LocalCircleChain[];
  /** Circle's attester key: the chains' transmitters trust its address. */
  attesterKey: Hex;
  /** The Forwarding Service's key: it needs gas on every chain. */
  forwarderKey: Hex;
  /** How long after a burn's block Circle attests (default 3 s). */
  attestationDelayMs?: number;
  /** How long `.72` and `.73` hold the attestation up (default 35 minutes, past the BURNED deadline). */
  slowLegMs?: number;
  /** Whether test amounts choose failures (default true; dev/test-amounts.ts). */
  testAmounts?: boolean;
  /** The domain settlements mint on: test amounts apply to burns toward it. */
  settlementDomain?: number;
  fees?: Partial<LocalCircleFees>;
  /** Iris's rate limit; none unless given (IRIS_RATE_LIMIT is Circle's). */
  rateLimit?: VendorRateLimit;
  now?: () => Date;
  port?: ListenPort;
  log?: (line: Record<string, unknown>) => void;
}

export interface LocalCircle {
  url: string;
  /** How many requests Iris has been asked so far, refused ones included. */
  readonly requests: number;
  /** The fee routes Iris answered, oldest first, as `{source}/{destination}` domains (tests). */
  readonly feeRoutes: readonly string[];
  attester: Hex;
  forwarder: Hex;
  /** Circle's forwards to `domain` fail until told otherwise (a chain's outage; tests). */
  failForwardsTo(domain: number, failing?: boolean): void;
  close(): Promise<void>;
}

const DEFAULT_ATTESTATION_DELAY_MS = 3_000;
const DEFAULT_SLOW_LEG_MS = 35 * 60_000;

export async function startLocalCircle(options: LocalCircleOptions): Promise<LocalCircle> {
  const now = options.now ?? (() => new Date());
  const attester = privateKeyToAccount(options.attesterKey);
  const forwarder = privateKeyToAccount(options.forwarderKey);
  const fees = checkedFees({ ...DEFAULT_CIRCLE_FEES, ...options.fees });
  const ends = options.chains.map((chain) => ({
    chain: {
      chainId: chain.chainId,
      name: chain.name,
      rpcUrl: chain.rpcUrl,
      cctpDomain: chain.cctpDomain,
      contracts: { tokenMessenger: chain.tokenMessenger, messageTransmitter: chain.messageTransmitter },
      client: createPublicClient({ transport: http(chain.rpcUrl, { retryCount: 0 }), cacheTime: 0 }),
    },
    domain: chain.cctpDomain,
    messenger: chain.tokenMessenger,
    transmitter: chain.messageTransmitter,
  }));
  const iris = new Attester({
    ends,
    attester,
    forwarder,
    fees,
    attestationDelayMs: options.attestationDelayMs ?? DEFAULT_ATTESTATION_DELAY_MS,
    slowLegMs: options.slowLegMs ?? DEFAULT_SLOW_LEG_MS,
    testAmounts: options.testAmounts ?? true,
    ...(options.settlementDomain === undefined ? {} : { settlementDomain: options.settlementDomain }),
    now,
  });
  let requests = 0;
  const feeRoutes: string[] = [];
  const server = createServer(
    createIrisHandler({
      onRequest: () => {
        requests += 1;
      },
      onFeeRoute: (route) => feeRoutes.push(route),
      attester: iris,
      fees,
      limiter: new VendorRateLimiter(options.rateLimit, now),
      log: safeLogger(options.log),
    }),
  );
  const { url } = await listen(server, { port: options.port });
  return {
    url,
    get requests() {
      return requests;
    },
    feeRoutes,
    attester: attester.address,
    forwarder: forwarder.address,
    failForwardsTo: (domain, failing) => iris.failForwardsTo(domain, failing),
    close: () => closeServer(server),
  };
}
