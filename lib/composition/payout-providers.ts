import type { Config } from "../kernel/config";
import type { BrebProvider } from "../payouts/breb-provider";
import { httpBrebProvider } from "../vendors/breb/breb-http";

/** Who pays BRE-B payouts out: absent when not configured (payout routes then answer unavailable). */
export interface PayoutProviders {
  provider?: BrebProvider;
}

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
