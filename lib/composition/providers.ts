import { privateKeyToAccount } from "viem/accounts";
import type { Providers } from "../http/deps";
import type { ChainRegistry, ConfiguredChain } from "../kernel/chain/registry";
import type { Clock } from "../kernel/clock";
import type { Config } from "../kernel/config";
import { ProviderFailure } from "../kernel/provider-failure";
import type { LegProviders } from "../settlement/leg-ports";
import { forwardedMintObserver } from "../vendors/circle/forwarded-mint-observer";
import { irisAttestation } from "../vendors/circle/iris-attestation";
import { lifiStatus } from "../vendors/lifi/lifi-status";
import { lifiRoutePlanner } from "../vendors/lifi/route-planner";
import { sandboxCircle } from "../vendors/sandbox/circle";
import { sandboxRelayer } from "../vendors/sandbox/relayer";
import { sandboxRoutePlanner } from "../vendors/sandbox/route-planner";
import { runtimeHostResolver } from "../webhooks/host-resolver";
import { fetchWebhookPost } from "../webhooks/post";
import { nodeWebhookPost } from "../webhooks/post-node";
import { identityProviders } from "./identity-providers";
import { payoutProviders } from "./payout-providers";
import { IRIS_BY_PROFILE, pricingProviders } from "./pricing-providers";

export function providersFor(config: Config, chains: ChainRegistry, clock: Clock): Providers {
  return {
    ...settlementProviders(config, chains, clock),
    identity: identityProviders(config),
    payouts: payoutProviders(config),
    webhookPost: onWorkers() ? fetchWebhookPost(runtimeHostResolver) : nodeWebhookPost(runtimeHostResolver),
  };
}

/** Cloudflare Workers say so in `navigator.userAgent`; everywhere else is Node here. */
function onWorkers(): boolean {
  return (globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent === "Cloudflare-Workers";
}

function settlementProviders(
  config: Config,
  chains: ChainRegistry,
  clock: Clock,
): Omit<Providers, "identity" | "payouts" | "webhookPost"> {
  const pricing = pricingProviders(config, chains);
  const source = chains.byRole("source");
  const intermediate = chains.byRole("intermediate");
  const destination = chains.byRole("destination");
  const timeoutMs = config.PROVIDER_TIMEOUT_MS;
  if (!source || !intermediate || !destination) {
    return { pricing, legs: missingChains(), routes: sandboxRoutePlanner() };
  }
  const mintsOn = (chain: ConfiguredChain) =>
    forwardedMintObserver({
      client: chain.client,
      messageTransmitter: need(chain, "messageTransmitter"),
      tokenMessenger: need(chain, "tokenMessenger"),
      usdc: need(chain, "usdc"),
      timeoutMs,
    });
  const forwardedMint = mintsOn(intermediate);
  const returnedMint = mintsOn(source);
  if (config.CHAIN_PROFILE === "local") {
    const operatorKey = config.SANDBOX_OPERATOR_KEY;
    if (!operatorKey) return { pricing, legs: missingChains(), routes: sandboxRoutePlanner() };
    const operator = privateKeyToAccount(operatorKey as `0x${string}`);
    return {
      pricing,
      legs: {
        attestation: sandboxCircle({
          source,
          intermediate,
          operator,
          attestationDelayMs: config.SANDBOX_ATTESTATION_DELAY_MS,
          slowLegMs: config.SANDBOX_SLOW_LEG_MS,
          testAmounts: config.MODE === "mock",
          clock,
          timeoutMs,
        }),
        forwardedMint,
        returnedMint,
        route: sandboxRelayer({
          intermediate,
          destination,
          ...(config.MODE === "mock"
            ? { testAmountsFrom: source, slowLegMs: config.SANDBOX_SLOW_LEG_MS }
            : {}),
          operator,
          relayDelayMs: config.SANDBOX_RELAY_DELAY_MS,
          clock,
          timeoutMs,
        }),
      },
      routes: sandboxRoutePlanner(),
    };
  }
  return {
    pricing,
    legs: {
      attestation: irisAttestation({
        baseUrl: config.IRIS_URL ?? IRIS_BY_PROFILE[config.CHAIN_PROFILE],
        timeoutMs,
      }),
      forwardedMint,
      returnedMint,
      route: lifiStatus({
        baseUrl: config.LIFI_URL,
        timeoutMs,
        ...(config.LIFI_API_KEY ? { apiKey: config.LIFI_API_KEY } : {}),
      }),
    },
    routes: lifiRoutePlanner(pricing.route),
  };
}

function need(
  chain: ConfiguredChain,
  contract: "tokenMessenger" | "messageTransmitter" | "usdc",
): `0x${string}` {
  const address = chain.contracts[contract];
  if (!address) throw new Error(`the ${chain.role} chain has no ${contract} configured`);
  return address;
}

/** Without the three chains nothing can be watched: every leg answers unavailable. */
function missingChains(): LegProviders {
  const unavailable = async (): Promise<never> => {
    throw new ProviderFailure("unavailable", "chains", "the settlement chains are not configured");
  };
  return {
    attestation: { attestation: unavailable },
    forwardedMint: { forwardedMint: unavailable },
    returnedMint: { forwardedMint: unavailable },
    route: { status: unavailable },
  };
}
