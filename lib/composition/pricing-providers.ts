import { batchingClientOf, type ChainRegistry } from "../kernel/chain/registry";
import type { Config } from "../kernel/config";
import { ProviderFailure } from "../kernel/provider-failure";
import type { ExchangeProvider, PricingProviders } from "../settlement/pricing-ports";
import { irisTransferFees } from "../vendors/circle/iris-fees";
import { lifiRoute } from "../vendors/lifi/lifi-route";
import { mentoExchange } from "../vendors/mento/mento-exchange";
import { mentoDirectory } from "../vendors/mento/mento-exchanges";
import { fixedTransferFees } from "../vendors/sandbox/fixed-fees";
import { sandboxRoute, sandboxRouteLegsOf } from "../vendors/sandbox/route";

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

/**
 * Mento on the destination chain, built once: its exchanges are found from the Broker on chain and
 * kept a while (mentoDirectory), as no profile lists them. Without a broker every quote has no route.
 */
function mentoOnDestination(chains: ChainRegistry, timeoutMs: number): ExchangeProvider {
  const destination = chains.byRole("destination");
  const broker = destination?.contracts.broker;
  if (!destination || !broker) {
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
    quoteClient: () => batchingClientOf(destination, timeoutMs),
    broker,
    directory: mentoDirectory({ client: destination.client, broker, timeoutMs }),
    timeoutMs,
  });
}
