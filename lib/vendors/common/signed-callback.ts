/**
 * Callbacks from providers (KYC, BRE-B) are signed per Standard Webhooks: headers webhook-id,
 * webhook-timestamp and webhook-signature ("v1,<base64 HMAC-SHA256>", space-separated during a
 * secret rotation) over `${id}.${timestamp}.${rawBody}`, with a shared secret "whsec_…".
 */

import { Webhook } from "standardwebhooks";
import { equalStrings } from "../../kernel/constant-time";

/** How far a callback's timestamp may be from now, either way (Standard Webhooks' tolerance). */
const CALLBACK_TOLERANCE_SECONDS = 5 * 60;

/**
 * Verifies a callback's signature on the raw body at `now`, and returns the body parsed as JSON, or
 * undefined when the headers, the timestamp, the signature or the JSON is wrong. Never throws: the
 * caller checks the payload's shape.
 *
 * Webhook.verify checks the timestamp against Date.now(), not the service's clock, so the tolerance
 * is checked here and Webhook only computes the expected signature, which is compared in constant time.
 */
export function verifySignedCallback(
  secret: string,
  rawBody: string,
  headers: Record<string, string>,
  now: Date,
): unknown | undefined {
  try {
    const signed = signedPartsOf(headers);
    if (!signed || typeof rawBody !== "string") return undefined;
    const timestamp = Number(signed.timestamp);
    // Written as "not within" so an invalid `now` (NaN) fails the check instead of passing it.
    if (!(Math.abs(now.getTime() / 1000 - timestamp) <= CALLBACK_TOLERANCE_SECONDS)) return undefined;
    const expected = new Webhook(secret).sign(signed.id, new Date(timestamp * 1000), rawBody);
    const matches = signed.signatures.split(" ").some((candidate) => equalStrings(candidate, expected));
    if (!matches) return undefined;
    return JSON.parse(rawBody) as unknown;
  } catch {
    // A bad secret, bad JSON or anything else unexpected is simply not a valid callback.
    return undefined;
  }
}

function signedPartsOf(
  headers: Record<string, string>,
): { id: string; timestamp: string; signatures: string } | undefined {
  const byName = new Map<string, unknown>();
  for (const [name, value] of Object.entries(headers ?? {})) byName.set(name.toLowerCase(), value);
  const id = byName.get("webhook-id");
  const timestamp = byName.get("webhook-timestamp");
  const signatures = byName.get("webhook-signature");
  if (typeof id !== "string" || id === "" || typeof signatures !== "string") return undefined;
  if (typeof timestamp !== "string" || !/^\d{1,12}$/.test(timestamp)) return undefined;
  return { id, timestamp, signatures };
}
