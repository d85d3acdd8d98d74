/**
 * The KYC provider: users pass KYC at the provider before payouts. The service links a user's
 * verified email to a customer at the provider, shows the provider's hosted KYC and terms pages as
 * links, and learns the outcome from signed callbacks (or by polling). The sandbox in
 * dev/kyc-sandbox speaks the same contract, so this adapter runs unchanged locally.
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
 * Every adapter failure is a ProviderFailure. The kinds are the pricing ports' (types.ts): anything
 * that is not an answer we can use (timeout, network, 5xx, 429, refused key, unknown customer,
 * unreadable answer) is "unavailable". The email and the key never appear in a failure message.
 */

import { z } from "zod";
import { withinDeadline } from "./deadline";
import { excerpt, type HttpAnswer } from "./http-get";
import { verifySignedCallback } from "./signed-callback";
import { ProviderFailure } from "./types";

const PROVIDER = "kyc";

export const KYC_STATUSES = ["not_started", "pending", "approved", "rejected"] as const;
export type KycStatus = (typeof KYC_STATUSES)[number];

export interface KycCustomer {
  customerId: string;
  status: KycStatus;
  kycLink: string;
  termsLink: string;
}

export interface KycProvider {
  /** Creates or finds (idempotent on externalId) the customer for this user, linking the verified email. */
  linksFor(input: { externalId: string; email: string; walletAddress: string }): Promise<KycCustomer>;
  statusOf(customerId: string): Promise<KycCustomer>;
}

export function httpKycProvider(options: {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
}): KycProvider {
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const headers = { accept: "application/json", authorization: `Bearer ${options.apiKey}` };
  const jsonHeaders = { ...headers, "content-type": "application/json" };
  const request = (method: "GET" | "POST", path: string, body?: string) =>
    exchange(
      method,
      `${baseUrl}${path}`,
      body === undefined ? headers : jsonHeaders,
      body,
      options.timeoutMs,
    );
  const secrets = (email?: string) => [options.apiKey, ...(email ? [email] : [])];

  return {
    async linksFor({ externalId, email, walletAddress }) {
      const answer = await request(
        "POST",
        "/customers",
        JSON.stringify({ externalId, email, walletAddress }),
      );
      if (answer.status !== 200 && answer.status !== 201) throw refusal(answer, secrets(email));
      return readCustomer(answer.body, secrets(email));
    },
    async statusOf(customerId) {
      const answer = await request("GET", `/customers/${encodeURIComponent(customerId)}`);
      if (answer.status === 404) {
        throw new ProviderFailure("unavailable", PROVIDER, `KYC provider has no customer ${customerId}`);
      }
      if (answer.status !== 200) throw refusal(answer, secrets());
      const customer = readCustomer(answer.body, secrets());
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

/** One request whose whole exchange fits in `timeoutMs`; a timeout or network error is "unavailable". */
async function exchange(
  method: "GET" | "POST",
  url: string,
  headers: Record<string, string>,
  body: string | undefined,
  timeoutMs: number,
): Promise<HttpAnswer> {
  try {
    return await withinDeadline(PROVIDER, timeoutMs, async (signal) => {
      const response = await fetch(url, { method, headers, body, signal });
      return { status: response.status, body: await response.text() };
    });
  } catch (error) {
    if (error instanceof ProviderFailure) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new ProviderFailure("unavailable", PROVIDER, `KYC provider could not be reached: ${reason}`, {
      cause: error,
    });
  }
}

/** Any status we cannot use; the provider's words are kept, minus anything that may echo our request. */
function refusal(answer: HttpAnswer, secrets: readonly string[]): ProviderFailure {
  const what = answer.status === 401 || answer.status === 403 ? " (API key refused)" : "";
  return new ProviderFailure(
    "unavailable",
    PROVIDER,
    `KYC provider answered HTTP ${answer.status}${what}: ${redacted(excerpt(answer.body), secrets)}`,
  );
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

function readCustomer(body: string, secrets: readonly string[]): KycCustomer {
  const parsed = customerSchema.safeParse(parseJsonOrUndefined(body));
  if (!parsed.success) {
    const fields = parsed.error.issues.map((issue) => issue.path.join(".") || "(body)").join(", ");
    throw new ProviderFailure(
      "unavailable",
      PROVIDER,
      `KYC provider answered an unreadable customer (${fields}): ${redacted(excerpt(body), secrets)}`,
    );
  }
  const { customerId, status, kycLink, termsLink } = parsed.data;
  return { customerId, status, kycLink, termsLink };
}

const EMAIL_LIKE = /[^\s"'<>(),;:@]+@[^\s"'<>(),;:@]+/g;

/** Removes the key, the email and anything email-like: a provider may echo the request in an error. */
function redacted(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret) out = out.split(secret).join("[redacted]");
  return out.replace(EMAIL_LIKE, "[redacted]");
}

export interface KycCallback {
  customerId: string;
  externalId: string;
  status: "pending" | "approved" | "rejected";
  updatedAt: string;
}

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
 * Verifies a callback's Standard Webhooks signature on the raw body (secret "whsec_…") at `now`
 * (signed-callback.ts). Returns the parsed callback, or undefined when the signature, timestamp or
 * shape is wrong.
 */
export function verifyKycCallback(
  secret: string,
  rawBody: string,
  headers: Record<string, string>,
  now: Date,
): KycCallback | undefined {
  const parsed = callbackSchema.safeParse(verifySignedCallback(secret, rawBody, headers, now));
  if (!parsed.success) return undefined;
  const { customerId, externalId, status, updatedAt } = parsed.data.data;
  return { customerId, externalId, status, updatedAt };
}

function parseJsonOrUndefined(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}
