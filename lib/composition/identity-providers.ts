import type { Config } from "../kernel/config";
import { type EmailSender, resendEmail } from "../vendors/email/resend";
import { httpKycProvider, type KycProvider } from "../vendors/kyc/kyc-http";

/** Who mails one-time codes and who runs KYC: each absent when not configured. */
export interface IdentityProviders {
  email?: EmailSender;
  kyc?: KycProvider;
}

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
