import type { Config } from "../kernel/config";
import type { PayoutProviders } from "../payouts/breb-provider";
import { httpBrebProvider } from "../vendors/breb/breb-http";

export function payoutProviders(config: Config): PayoutProviders {
  if (!config.BREB_PROVIDER_URL || !config.BREB_PROVIDER_API_KEY) return {};
  return {
    provider: httpBrebProvider({
      baseUrl: config.BREB_PROVIDER_URL,
      apiKey: config.BREB_PROVIDER_API_KEY,
      timeoutMs: config.PROVIDER_TIMEOUT_MS,
    }),
  };
}
