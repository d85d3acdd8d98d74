import type { ChainRegistry } from "../chain/registry";
import type { Config } from "../config";
import { fixedTransferFees } from "./fixed-fees";
import { irisTransferFees } from "./iris-fees";
import { lifiRoute } from "./lifi-route";
import { mentoExchange } from "./mento-exchange";
import type { MentoExchange } from "./mento-exchanges";
import { sandboxRoute, sandboxRouteLegsOf } from "./sandbox-route";
import { type ExchangeProvider, type PricingProviders, ProviderFailure } from "./types";

export const IRIS_BY_PROFILE = {
  mainnet: "https://iris-api.circle.com",
  testnet: "https://iris-api-sandbox.circle.com",
} as const;

/**
 * The pricing providers of the configured profile. Local: fixed CCTP fees, the sandbox route and
 * Mento's real calls against the local broker. Testnet and mainnet: Circle Iris, LI.FI and Mento.
 */
export function pricingProviders(config: Config, chains: ChainRegistry): PricingProviders {
  const timeoutMs = config.PROVIDER_TIMEOUT_MS;
  const profile = config.CHAIN_PROFILE;
  return {
    fees:
      profile === "local"
        ? fixedTransferFees()
        : irisTransferFees({ baseUrl: config.IRIS_URL ?? IRIS_BY_PROFILE[profile], timeoutMs }),
    route:
      profile === "local"
        ? sandboxRoute({ legs: sandboxRouteLegsOf(chains.chains) })
        : lifiRoute({
            baseUrl: config.LIFI_URL,
            timeoutMs,
            ...(config.LIFI_API_KEY ? { apiKey: config.LIFI_API_KEY } : {}),
            ...(config.LIFI_INTEGRATOR ? { integrator: config.LIFI_INTEGRATOR } : {}),
          }),
    exchange: mentoOnDestination(chains, timeoutMs),
  };
}

/** Mento on the destination chain, built once; without a broker there every quote has no route. */
function mentoOnDestination(chains: ChainRegistry, timeoutMs: number): ExchangeProvider {
  const destination = chains.byRole("destination");
  const { broker, exchangeProvider } = destination?.contracts ?? {};
  if (!destination || !broker || !exchangeProvider) {
    return {
      quoteExchange: async () => {
        throw new ProviderFailure(
          "no_route",
          "mento",
          "no Mento broker is configured on the destination chain",
        );
      },
    };
  }
  return mentoExchange({
    client: destination.client,
    broker,
    exchangeProvider,
    exchanges: (destination.exchanges ?? []) as MentoExchange[],
    timeoutMs,
  });
}
