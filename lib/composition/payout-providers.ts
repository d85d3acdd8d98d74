import { privateKeyToAccount } from "viem/accounts";
import type { Config } from "../kernel/config";
import type { PayoutProviders } from "../payouts/breb-provider";
import { httpBrebProvider } from "../vendors/breb/breb-http";

export function payoutProviders(config: Config): PayoutProviders {
  // A local key here; a deployment may hand in any viem Account (KMS- or HSM-backed) instead.
  const feeWallet = config.BREB_FEE_WALLET_KEY
    ? { feeWallet: privateKeyToAccount(config.BREB_FEE_WALLET_KEY as `0x${string}`) }
    : {};
  if (!config.BREB_PROVIDER_URL || !config.BREB_PROVIDER_API_KEY) return feeWallet;
  return {
    ...feeWallet,
    provider: httpBrebProvider({
      baseUrl: config.BREB_PROVIDER_URL,
      apiKey: config.BREB_PROVIDER_API_KEY,
      timeoutMs: config.PROVIDER_TIMEOUT_MS,
    }),
  };
}
