import type { IdentityProviders } from "../identity/ports";
import type { Config } from "../kernel/config";
import { resendEmail } from "../vendors/email/resend";
import { httpKycProvider } from "../vendors/kyc/kyc-http";

/** Mock mode's sender address when none is set (the local mailbox accepts any). */
const MOCK_EMAIL_FROM = "COPm sandbox <codes@copm.localhost>";

export function identityProviders(config: Config): IdentityProviders {
  const timeoutMs = config.PROVIDER_TIMEOUT_MS;
  const from = config.EMAIL_FROM ?? (config.MODE === "mock" ? MOCK_EMAIL_FROM : undefined);
  return {
    ...(config.RESEND_API_KEY && from
      ? {
          email: resendEmail({
            apiKey: config.RESEND_API_KEY,
            baseUrl: config.RESEND_API_URL,
            from,
            timeoutMs,
          }),
        }
      : {}),
    ...(config.KYC_PROVIDER_URL && config.KYC_PROVIDER_API_KEY
      ? {
          kyc: httpKycProvider({
            baseUrl: config.KYC_PROVIDER_URL,
            apiKey: config.KYC_PROVIDER_API_KEY,
            timeoutMs,
          }),
        }
      : {}),
  };
}
