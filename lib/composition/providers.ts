import type { Providers } from "../http/deps";
import type { ChainRegistry, ConfiguredChain } from "../kernel/chain/registry";
import type { Clock } from "../kernel/clock";
import type { Config } from "../kernel/config";
import { ProviderFailure } from "../kernel/provider-failure";
import { type LegProviders, priceBookMemory } from "../settlement";
import { forwardedMintObserver } from "../vendors/circle/forwarded-mint-observer";
import { irisAttestation } from "../vendors/circle/iris-attestation";
import { lifiBridgePlanner } from "../vendors/lifi/bridge-planner";
import { lifiStatus } from "../vendors/lifi/lifi-status";
import { runtimeHostResolver } from "../webhooks/host-resolver";
import { fetchWebhookPost } from "../webhooks/post";
import { nodeWebhookPost } from "../webhooks/post-node";
import { identityProviders } from "./identity-providers";
import { payoutProviders } from "./payout-providers";
import { irisUrlOf, pricingProviders } from "./pricing-providers";

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

/**
 * Circle and the aggregator through their production adapters in every profile and mode: Iris at
 * IRIS_URL (or the profile's), LI.FI at LIFI_URL. The local stack points them at its own services,
 * which speak the same APIs (dev/circle, dev/aggregator); nothing here stands in for a vendor.
 */
function settlementProviders(
  config: Config,
  chains: ChainRegistry,
  clock: Clock,
): Omit<Providers, "identity" | "payouts" | "webhookPost"> {
  const now = () => clock.now();
  const pricing = pricingProviders(config, chains, clock);
  const routes = lifiBridgePlanner(pricing.bridge, now);
  const prices = priceBookMemory();
  const intermediate = chains.byRole("intermediate");
  const destination = chains.byRole("destination");
  const irisUrl = irisUrlOf(config);
  const timeoutMs = config.PROVIDER_TIMEOUT_MS;
  if (chains.sources.length === 0 || !intermediate || !destination || !irisUrl) {
    return { pricing, legs: unavailableLegs(irisUrl ? "chains" : "circle-iris"), routes, prices };
  }
  const mintsOn = (chain: ConfiguredChain) =>
    forwardedMintObserver({
      client: chain.client,
      messageTransmitter: need(chain, "messageTransmitter"),
      tokenMessenger: need(chain, "tokenMessenger"),
      usdc: need(chain, "usdc"),
      timeoutMs,
    });
  const returnedMints = new Map(chains.sources.map((source) => [source.chainId, mintsOn(source)]));
  return {
    pricing,
    legs: {
      attestation: irisAttestation({ baseUrl: irisUrl, timeoutMs, now }),
      forwardedMint: mintsOn(intermediate),
      returnedMint: (chainId) =>
        returnedMints.get(chainId) ?? unavailableLegs("chains").returnedMint(chainId),
      bridge: lifiStatus({
        baseUrl: config.LIFI_URL,
        timeoutMs,
        now,
        ...(config.LIFI_API_KEY ? { apiKey: config.LIFI_API_KEY } : {}),
      }),
    },
    routes,
    prices,
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

/** Without the three chains (or, locally, without the Circle service's URL) every leg answers unavailable. */
function unavailableLegs(missing: "chains" | "circle-iris"): LegProviders {
  const unavailable = async (): Promise<never> => {
    throw new ProviderFailure(
      "unavailable",
      missing,
      missing === "chains"
        ? "the settlement chains are not configured"
        : "IRIS_URL is not set (the local profile has no default: the local stack's Circle service)",
    );
  };
  return {
    attestation: { messages: unavailable, reattest: unavailable },
    forwardedMint: { forwardedMint: unavailable },
    returnedMint: () => ({ forwardedMint: unavailable }),
    bridge: { status: unavailable },
  };
}
