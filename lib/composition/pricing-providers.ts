import { batchingClientOf, type ChainRegistry } from "../kernel/chain/registry";
import type { Clock } from "../kernel/clock";
import type { Config } from "../kernel/config";
import { ProviderFailure } from "../kernel/provider-failure";
import type { ExchangeProvider, PricingProviders, TransferFeesProvider } from "../settlement";
import { irisTransferFees } from "../vendors/circle/iris-fees";
import { lifiQuote } from "../vendors/lifi/lifi-quote";
import { mentoExchange } from "../vendors/mento/mento-exchange";
import { mentoDirectory } from "../vendors/mento/mento-exchanges";

const IRIS_BY_PROFILE: Partial<Record<Config["CHAIN_PROFILE"], string>> = {
  mainnet: "https://iris-api.circle.com",
  testnet: "https://iris-api-sandbox.circle.com",
};

/** Circle's Iris for the profile: IRIS_URL when set, else Circle's host (the local profile has none). */
export function irisUrlOf(config: Config): string | undefined {
  return config.IRIS_URL ?? IRIS_BY_PROFILE[config.CHAIN_PROFILE];
}

/**
 * The pricing providers, the same in every profile: Circle Iris's fees, LI.FI's quotes and Mento's
 * contracts on the destination chain. Only their addresses differ (the local stack's own services).
 */
export function pricingProviders(config: Config, chains: ChainRegistry, clock?: Clock): PricingProviders {
  const timeoutMs = config.PROVIDER_TIMEOUT_MS;
  const irisUrl = irisUrlOf(config);
  const now = () => clock?.now() ?? new Date();
  return {
    fees: irisUrl ? irisTransferFees({ baseUrl: irisUrl, timeoutMs, now }) : noIris(),
    bridge: lifiQuote({
      baseUrl: config.LIFI_URL,
      timeoutMs,
      now,
      ...(config.LIFI_API_KEY ? { apiKey: config.LIFI_API_KEY } : {}),
      ...(config.LIFI_INTEGRATOR ? { integrator: config.LIFI_INTEGRATOR } : {}),
    }),
    exchange: mentoOnDestination(chains, timeoutMs, clock),
  };
}

function noIris(): TransferFeesProvider {
  return {
    transferFees: async () => {
      throw new ProviderFailure(
        "unavailable",
        "circle-iris",
        "IRIS_URL is not set (the local profile has no default: the local stack's Circle service)",
      );
    },
  };
}

/**
 * Mento on the destination chain, built once: its exchanges are found from the Broker on chain and
 * kept a while (mentoDirectory), as no profile lists them. Without a broker every quote has no route.
 */
function mentoOnDestination(chains: ChainRegistry, timeoutMs: number, clock?: Clock): ExchangeProvider {
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
    directory: mentoDirectory({
      client: destination.client,
      broker,
      timeoutMs,
      ...(clock ? { now: () => clock.now().getTime() } : {}),
    }),
    timeoutMs,
  });
}
