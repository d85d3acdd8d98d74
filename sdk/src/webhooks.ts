import { Webhook, WebhookVerificationError } from "standardwebhooks";
import type { Event } from "./generated/types.gen";

export { WebhookVerificationError };

/** The events a receiver gets, as a union on `type`: narrowing on it types `data`. */
export type WebhookEvent = Event;

/** The headers of a delivery, as a Fetch `Headers` or a plain record (Node's `IncomingHttpHeaders`). */
export type DeliveryHeaders = Headers | Record<string, string | string[] | undefined>;

/**
 * Verifies one delivery as Standard Webhooks defines it: the HMAC-SHA256 in `webhook-signature` over
 * `{webhook-id}.{webhook-timestamp}.{raw body}` with the endpoint's secret (`whsec_…`; during a
 * rotation, verify with the new secret, then the old), a timestamp within five minutes, and a body
 * whose event id is the `webhook-id`. Answers the event, typed by its `type`; throws
 * WebhookVerificationError for anything else. Pass the raw body exactly as received: a parsed and
 * re-serialized body no longer matches its signature.
 */
export function verifyWebhook(
  secret: string | readonly string[],
  rawBody: string,
  headers: DeliveryHeaders,
): WebhookEvent {
  const flat = flatten(headers);
  const secrets = typeof secret === "string" ? [secret] : secret;
  let lastError: unknown;
  for (const candidate of secrets) {
    try {
      const event = new Webhook(candidate).verify(rawBody, flat) as WebhookEvent | undefined;
      if (!event || typeof event !== "object" || event.id !== flat["webhook-id"]) {
        throw new WebhookVerificationError("The body's event id is not the delivery's webhook-id");
      }
      return event;
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError instanceof WebhookVerificationError
    ? lastError
    : new WebhookVerificationError(String(lastError));
}

function flatten(headers: DeliveryHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  if (headers instanceof Headers) {
    headers.forEach((value, name) => {
      flat[name.toLowerCase()] = value;
    });
    return flat;
  }
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  }
  return flat;
}

/** Where a receiver remembers the deliveries it handled (a database table, Redis, KV). */
export interface DeliveryStore {
  /** Claims `webhookId`: true the first time, false when it was claimed already and not released. */
  claim(webhookId: string): Promise<boolean>;
  /** Forgets a claim whose handling failed, so the service's retry is handled. */
  release(webhookId: string): Promise<void>;
}

/**
 * Runs `handle` once per `webhook-id`: the service sends an event at least once (retries, replays),
 * with the same id each time. A handler that throws releases its claim, so the retry runs it again.
 * Answers whether it ran.
 */
export async function handleOnce(
  store: DeliveryStore,
  event: WebhookEvent,
  handle: (event: WebhookEvent) => Promise<void>,
): Promise<boolean> {
  if (!(await store.claim(event.id))) return false;
  try {
    await handle(event);
    return true;
  } catch (error) {
    await store.release(event.id);
    throw error;
  }
}

/**
 * A DeliveryStore in memory, for one process: ids are kept `ttlMs` (default 3 days, past the
 * service's last retry) and at most `max` of them, the oldest forgotten first.
 */
export function memoryDeliveryStore(
  options: { ttlMs?: number; max?: number; now?: () => number } = {},
): DeliveryStore {
  const ttlMs = options.ttlMs ?? 3 * 24 * 60 * 60 * 1000;
  const max = options.max ?? 100_000;
  const now = options.now ?? Date.now;
  const claimed = new Map<string, number>();
  return {
    async claim(webhookId) {
      const at = claimed.get(webhookId);
      if (at !== undefined && now() - at < ttlMs) return false;
      claimed.delete(webhookId);
      claimed.set(webhookId, now());
      for (const [id, since] of claimed) {
        if (claimed.size <= max && now() - since < ttlMs) break;
        claimed.delete(id);
      }
      return true;
    },
    async release(webhookId) {
      claimed.delete(webhookId);
    },
  };
}
