import type { ChainRegistry } from "../chain/registry";
import type { Config } from "../config";
import { fixedTransferFees } from "./fixed-fees";
import { irisTransferFees } from "./iris-fees";
import { lifiRoute } from "./lifi-route";
import { mentoExchange } from "./mento-exchange";
import { sandboxRoute } from "./sandbox-route";
import { type PricingProviders, ProviderFailure } from "./types";

const IRIS_BY_PROFILE = {
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
        ? sandboxRoute({ legs: sandboxLegs(chains) })
        : lifiRoute({
            baseUrl: config.LIFI_URL,
            timeoutMs,
            ...(config.LIFI_API_KEY ? { apiKey: config.LIFI_API_KEY } : {}),
            ...(config.LIFI_INTEGRATOR ? { integrator: config.LIFI_INTEGRATOR } : {}),
          }),
    exchange: {
      quoteExchange(request) {
        const destination = chains.byRole("destination");
        const { broker, exchangeProvider } = destination?.contracts ?? {};
        if (!destination || !broker || !exchangeProvider) {
          throw new ProviderFailure(
            "no_route",
            "mento",
            "no Mento broker is configured on the destination chain",
          );
        }
        return mentoExchange({
          client: destination.client,
          broker,
          exchangeProvider,
          exchanges: (destination.exchanges ?? []) as Array<{
            exchangeId: `0x${string}`;
            tokens: [`0x${string}`, `0x${string}`];
          }>,
          timeoutMs,
        }).quoteExchange(request);
      },
    },
  };
}

/** The sandbox relayer carries USDC from the intermediate chain to USDm on the destination. */
function sandboxLegs(chains: ChainRegistry) {
  const from = chains.byRole("intermediate");
  const to = chains.byRole("destination");
  if (!from?.contracts.usdc || !to?.contracts.usdm) return [];
  return [
    { fromChainId: from.chainId, usdc: from.contracts.usdc, toChainId: to.chainId, usdm: to.contracts.usdm },
  ];
}
