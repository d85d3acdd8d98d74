/**
 * The KYC provider: users pass KYC at the provider before payouts. The service links a user's
 * verified email to a customer at the provider, shows the provider's hosted KYC and terms pages as
 * links, and learns the outcome from signed callbacks (or by polling). The sandbox in
 * dev/kyc-provider speaks the same contract, so this adapter runs unchanged locally.
 *
 * The HTTP contract (docs/kyc-provider-contract.md):
 *   POST {baseUrl}/customers   Authorization: Bearer <apiKey>
 *     { "externalId", "email", "walletAddress" }
 *     → 201 (new) or 200 (same externalId: the same customer, email updated)
 *       { "customerId", "status", "kycLink", "termsLink" }
 *   GET {baseUrl}/customers/{customerId}   Authorization: Bearer <apiKey>
 *     → 200 the same shape; 404 unknown customer
 *   Statuses: not_started, pending, approved, rejected.
 *   Callbacks: the provider POSTs
 *     { "type": "kyc.status", "data": { "customerId", "externalId", "status", "updatedAt" } }
 *   to the service's /callbacks/kyc, signed per Standard Webhooks (webhook-id, webhook-timestamp,
 *   webhook-signature) with a shared secret "whsec_…".
 *
 * Every adapter failure is a ProviderFailure. The kinds are the kernel's (lib/kernel/provider-failure.ts): anything
 * that is not an answer we can use (timeout, network, 5xx, 429, refused key, unknown customer,
 * unreadable answer) is "unavailable". The email and the key never appear in a failure message.
 */

import { z } from "zod";
import { KYC_STATUSES, type KycCallback, type KycCustomer, type KycProvider } from "../../identity/ports";
import { ProviderFailure } from "../../kernel/provider-failure";
import { providerHttp } from "../common/provider-http";
import { type CallbackCheck, checkSignedCallback } from "../common/signed-callback";

const PROVIDER = "kyc";

// A provider may echo the request in an error, and emails other than the one sent may appear in it.
const EMAIL_LIKE = /[^\s"'<>(),;:@]+@[^\s"'<>(),;:@]+/g;

export function httpKycProvider(options: {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
}): KycProvider {
  const http = providerHttp({ ...options, provider: PROVIDER, name: "KYC provider", alsoRedact: EMAIL_LIKE });
  const readCustomer = (body: string, secrets?: readonly string[]): KycCustomer => {
    const { customerId, status, kycLink, termsLink } = http.read(customerSchema, "customer", body, secrets);
    return { customerId, status, kycLink, termsLink };
  };

  return {
    async linksFor({ externalId, email, walletAddress }) {
      const secrets = [email];
      const answer = await http.request("POST", "/customers", {
        secrets,
        body: { externalId, email, walletAddress },
      });
      if (answer.status !== 200 && answer.status !== 201) throw http.refusal(answer, secrets);
      return readCustomer(answer.body, secrets);
    },
    async statusOf(customerId) {
      const answer = await http.request("GET", `/customers/${encodeURIComponent(customerId)}`);
      if (answer.status === 404) {
        throw new ProviderFailure("unavailable", PROVIDER, `KYC provider has no customer ${customerId}`);
      }
      if (answer.status !== 200) throw http.refusal(answer);
      const customer = readCustomer(answer.body);
      if (customer.customerId !== customerId) {
        throw new ProviderFailure(
          "unavailable",
          PROVIDER,
          `KYC provider answered customer ${customer.customerId} when asked for ${customerId}`,
        );
      }
      return customer;
    },
  };
}

// The links are shown to users, so only web addresses pass (no javascript: or data: links).
const webLink = z.string().refine((text) => {
  try {
    const { protocol } = new URL(text);
    return protocol === "https:" || protocol === "http:";
  } catch {
    return false;
  }
}, "not an http(s) URL");

const customerSchema = z.object({
  customerId: z.string().min(1),
  status: z.enum(KYC_STATUSES),
  kycLink: webLink,
  termsLink: webLink,
});

const callbackSchema = z.object({
  type: z.literal("kyc.status"),
  data: z.object({
    customerId: z.string().min(1),
    externalId: z.string().min(1),
    status: z.enum(["pending", "approved", "rejected"]),
    updatedAt: z.iso.datetime({ offset: true }),
  }),
});

/**
 * Checks a callback's Standard Webhooks signature on the raw body (secret "whsec_…") at `now`, then
 * its shape (signed-callback.ts). Never throws.
 */
export function checkKycCallback(
  secret: string,
  rawBody: string,
  headers: Record<string, string>,
  now: Date,
): CallbackCheck<KycCallback> {
  const checked = checkSignedCallback(secret, rawBody, headers, now, callbackSchema);
  if (!checked.ok) return checked;
  const { customerId, externalId, status, updatedAt } = checked.value.data;
  return { ok: true, value: { customerId, externalId, status, updatedAt } };
}

/** The callback, or undefined when its signature, timestamp or shape is wrong. */
export function verifyKycCallback(
  secret: string,
  rawBody: string,
  headers: Record<string, string>,
  now: Date,
): KycCallback | undefined {
  const checked = checkKycCallback(secret, rawBody, headers, now);
  return checked.ok ? checked.value : undefined;
}
