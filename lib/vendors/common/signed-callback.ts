/**
 * Callbacks from providers (KYC, BRE-B) are signed per Standard Webhooks: headers webhook-id,
 * webhook-timestamp and webhook-signature ("v1,<base64 HMAC-SHA256>", space-separated during a
 * secret rotation) over `${id}.${timestamp}.${rawBody}`, with a shared secret "whsec_…".
 */

import { Webhook } from "standardwebhooks";
import { equalStrings } from "../../kernel/constant-time";

/** How far a callback's timestamp may be from now, either way (Standard Webhooks' tolerance). */
const CALLBACK_TOLERANCE_SECONDS = 5 * 60;

/** One failing field of a signed callback's body, as zod names it. */
export interface CallbackIssue {
  path: PropertyKey[];
  message: string;
  code?: string;
}

/**
 * What a callback's check found: the payload, or why it is refused. `signature`: the headers, the
 * timestamp or the signature is wrong, and nothing of the body was read. `body`: the signature holds
 * but the body is not JSON or not the documented shape (the provider's fault, which a retry of the same
 * bytes will not mend).
 */
export type CallbackCheck<T> =
  | { ok: true; value: T }
  | { ok: false; refused: "signature" }
  | { ok: false; refused: "body"; issues: CallbackIssue[] };

/**
 * Checks a callback's signature on the raw body at `now`, then its body against `schema`. Never
 * throws: the caller maps the refusal.
 *
 * Webhook.verify checks the timestamp against Date.now(), not the service's clock, so the tolerance
 * is checked here and Webhook only computes the expected signature, which is compared in constant time.
 */
export function checkSignedCallback<T>(
  secret: string,
  rawBody: string,
  headers: Record<string, string>,
  now: Date,
  schema: {
    safeParse(
      value: unknown,
    ): { success: true; data: T } | { success: false; error: { issues: CallbackIssue[] } };
  },
): CallbackCheck<T> {
  if (!signatureHolds(secret, rawBody, headers, now)) return { ok: false, refused: "signature" };
  let body: unknown;
  try {
    body = JSON.parse(rawBody);
  } catch {
    return { ok: false, refused: "body", issues: [{ path: [], message: "is not JSON" }] };
  }
  const parsed = schema.safeParse(body);
  return parsed.success
    ? { ok: true, value: parsed.data }
    : { ok: false, refused: "body", issues: parsed.error.issues };
}

function signatureHolds(
  secret: string,
  rawBody: string,
  headers: Record<string, string>,
  now: Date,
): boolean {
  try {
    const signed = signedPartsOf(headers);
    if (!signed || typeof rawBody !== "string") return false;
    const timestamp = Number(signed.timestamp);
    // Written as "not within" so an invalid `now` (NaN) fails the check instead of passing it.
    if (!(Math.abs(now.getTime() / 1000 - timestamp) <= CALLBACK_TOLERANCE_SECONDS)) return false;
    const expected = new Webhook(secret).sign(signed.id, new Date(timestamp * 1000), rawBody);
    return signed.signatures.split(" ").some((candidate) => equalStrings(candidate, expected));
  } catch {
    // A bad secret or anything else unexpected is simply not a valid signature.
    return false;
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
