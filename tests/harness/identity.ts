import { localSettlementVars } from "../../dev/local-defaults";
import type { Harness } from "./app";
import type { Tenant } from "./tenants";

/** Checksummed addresses of Hardhat's public accounts: users in the identity tests. */
export const USER = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
export const OTHER_USER = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";

/** What live mode needs besides the identity providers (which `identity: true` supplies). */
export function liveEnv(): Record<string, string> {
  return {
    MODE: "live",
    CHAIN_PROFILE: "testnet",
    DATABASE_URL: "postgres://unused@127.0.0.1/unused",
    QSTASH_TOKEN: "t",
    QSTASH_CURRENT_SIGNING_KEY: "c",
    QSTASH_NEXT_SIGNING_KEY: "n",
    OTP_HASH_KEY: "test-otp-hash-key-0123456789abcdef-0123",
    DASHBOARD_SESSION_KEY: "test-dashboard-session-key-0123456789abcdef",
    EMAIL_FROM: "COPm <codes@copm.test>",
    ...localSettlementVars(),
  };
}

/** Live mode's identity providers for suites that never call them (`identity: true` starts real ones). */
export const UNUSED_IDENTITY_PROVIDERS: Record<string, string> = {
  RESEND_API_KEY: "re_unused",
  KYC_PROVIDER_URL: "http://127.0.0.1:9",
  KYC_PROVIDER_API_KEY: "unused",
  KYC_CALLBACK_SECRET: "whsec_dW51c2VkLXVudXNlZC11bnVzZWQ=",
};

/** Live mode's payout provider for suites that never call it. */
export const UNUSED_PAYOUT_PROVIDER: Record<string, string> = {
  BREB_PROVIDER_URL: "http://127.0.0.1:9",
  BREB_PROVIDER_API_KEY: "unused",
  BREB_CALLBACK_SECRET: "whsec_dW51c2VkLXVudXNlZC11bnVzZWQ=",
  BREB_FEE_WALLET: "0x000000000000000000000000000000000000fEe5",
};

/** A BRE-B identity call, with the tenant's key or, with `miniapp`, on the key-less prefix. */
export function identityRequest(
  h: Harness,
  tenant: Tenant | "miniapp",
  path: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  const prefix = tenant === "miniapp" ? "/api/breb" : "/api/integrations/breb";
  return h.app.request(`${prefix}${path}`, {
    method: init.method ?? (init.body === undefined ? "GET" : "POST"),
    headers: {
      ...(tenant === "miniapp" ? {} : { authorization: `Bearer ${tenant.apiKey}` }),
      "content-type": "application/json",
      ...init.headers,
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
}

export async function sendCode(h: Harness, tenant: Tenant | "miniapp", email: string, userAddress = USER) {
  return identityRequest(h, tenant, "/kyc/otp/send", { body: { email, userAddress } });
}

export async function verifyCode(
  h: Harness,
  tenant: Tenant | "miniapp",
  email: string,
  code: string,
  userAddress = USER,
) {
  return identityRequest(h, tenant, "/kyc/otp/verify", { body: { email, userAddress, code } });
}

export async function kycOf(h: Harness, tenant: Tenant | "miniapp", userAddress = USER) {
  const response = await identityRequest(h, tenant, `/kyc?userAddress=${userAddress}`);
  if (response.status !== 200) throw new Error(`kyc read: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { kyc: { status: string; kycLink?: string; termsLink?: string } }).kyc;
}

/** The code in the newest email the local mailbox holds for `email`. */
export function codeFromMailbox(h: Harness, email: string): string {
  const message = h.mailbox?.emails().find((stored) => stored.to.includes(email));
  const code = message?.text.match(/\b(\d{6})\b/)?.[1];
  if (!code) throw new Error(`no code emailed to ${email}`);
  return code;
}
