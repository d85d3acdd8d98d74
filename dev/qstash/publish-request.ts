// Turns one publish (destination, headers, raw body) into a message draft, validating each Upstash-*
// header the way QStash reads it. Shared by POST /v2/publish and POST /v2/batch.

import { createHash } from "node:crypto";
import { parsePublishDuration } from "./durations";
import { compileRetryDelay } from "./retry-delay-expression";
import { DELIVERY_METHODS, type DeliveryMethod, type MessageDraft } from "./types";

export interface PublishInput {
  /** Everything after /v2/publish/, query string included, exactly as received. */
  destination: string;
  /** Header name/value pairs as sent (names in any case). */
  headers: Array<[string, string]>;
  body: Buffer;
  now: number;
  defaultRetries: number;
  callerIp?: string;
}

export type PublishParse =
  | { ok: true; draft: MessageDraft; ignoredHeaders: string[] }
  | { ok: false; error: string };

const FORWARD_PREFIX = "upstash-forward-";

// Headers the HTTP layer computes itself; forwarding a stale value would corrupt the delivery.
const NOT_FORWARDABLE = new Set([
  "host",
  "content-length",
  "connection",
  "keep-alive",
  "transfer-encoding",
  "te",
  "trailer",
  "upgrade",
]);

// QStash features the stand-in does not implement. Silently dropping them would make dev behave
// differently from production without anyone noticing, so a publish that uses them is refused.
const UNSUPPORTED_PREFIXES = ["upstash-callback", "upstash-failure-callback"];

// Accepted and without effect here: they shape rate, dashboards and logs, not what is delivered.
const WITHOUT_EFFECT = ["upstash-flow-control-key", "upstash-flow-control-value", "upstash-label"];

export function parsePublish(input: PublishInput): PublishParse {
  const header = headerLookup(input.headers);

  const url = parseDestination(input.destination);
  if (!url) {
    return {
      ok: false,
      error: `invalid destination url "${input.destination}": it must be an absolute http(s) URL (URL groups and APIs are not supported by the local QStash)`,
    };
  }

  const unsupported = input.headers
    .map(([name]) => name)
    .find((name) => UNSUPPORTED_PREFIXES.some((prefix) => name.toLowerCase().startsWith(prefix)));
  if (unsupported) return { ok: false, error: `${unsupported} is not supported by the local QStash` };

  const method = (header("upstash-method") ?? "POST").toUpperCase();
  if (!isDeliveryMethod(method)) {
    return {
      ok: false,
      error: `invalid Upstash-Method "${method}": use one of ${DELIVERY_METHODS.join(", ")}`,
    };
  }

  const notBefore = parseNotBefore(header("upstash-not-before"), header("upstash-delay"), input.now);
  if (typeof notBefore === "string") return { ok: false, error: notBefore };

  const maxRetries = parseRetries(header("upstash-retries"), input.defaultRetries);
  if (typeof maxRetries === "string") return { ok: false, error: maxRetries };

  const retryDelayExpression = header("upstash-retry-delay");
  if (retryDelayExpression !== undefined) {
    try {
      compileRetryDelay(retryDelayExpression);
    } catch (error) {
      return { ok: false, error: `invalid Upstash-Retry-Delay "${retryDelayExpression}": ${String(error)}` };
    }
  }

  const timeoutHeader = header("upstash-timeout");
  const timeoutMs = timeoutHeader === undefined ? undefined : parsePublishDuration(timeoutHeader);
  if (timeoutHeader !== undefined && !(timeoutMs !== undefined && timeoutMs > 0)) {
    return {
      ok: false,
      error: `invalid Upstash-Timeout "${timeoutHeader}": use a number and unit like 30s or 5m`,
    };
  }

  const contentType = header("content-type");
  const forwardHeaders = collectForwardHeaders(input.headers);
  const bodyBase64 = input.body.toString("base64");

  const explicitId = header("upstash-deduplication-id");
  if (explicitId !== undefined && explicitId.trim() === "") {
    return { ok: false, error: "Upstash-Deduplication-Id must not be empty" };
  }
  const contentBased = header("upstash-content-based-deduplication")?.toLowerCase() === "true";
  const deduplicationId =
    explicitId ?? (contentBased ? contentHash(url, input.body, contentType, forwardHeaders) : undefined);

  const draft: MessageDraft = {
    url,
    method,
    bodyBase64,
    forwardHeaders,
    notBefore,
    maxRetries,
    ...(contentType !== undefined && { contentType }),
    ...(retryDelayExpression !== undefined && { retryDelayExpression }),
    ...(timeoutMs !== undefined && { timeoutMs }),
    ...(deduplicationId !== undefined && { deduplicationId }),
    ...(input.callerIp !== undefined && { callerIp: input.callerIp }),
  };
  const ignoredHeaders = input.headers
    .map(([name]) => name)
    .filter((name) => WITHOUT_EFFECT.includes(name.toLowerCase()));
  return { ok: true, draft, ignoredHeaders };
}

/** Case-insensitive header reader; repeated headers are joined as HTTP allows. */
function headerLookup(headers: Array<[string, string]>): (name: string) => string | undefined {
  const byName = new Map<string, string>();
  for (const [name, value] of headers) {
    const key = name.toLowerCase();
    const previous = byName.get(key);
    byName.set(key, previous === undefined ? value : `${previous}, ${value}`);
  }
  return (name) => byName.get(name);
}

/** The destination string itself (it becomes the signature's `sub`), when it is an http(s) URL. */
function parseDestination(destination: string): string | undefined {
  if (!/^https?:\/\//i.test(destination)) return undefined;
  try {
    const parsed = new URL(destination);
    return parsed.hostname ? destination : undefined;
  } catch {
    return undefined;
  }
}

function isDeliveryMethod(method: string): method is DeliveryMethod {
  return (DELIVERY_METHODS as readonly string[]).includes(method);
}

/** Unix ms of the first attempt; Upstash-Not-Before overrides Upstash-Delay, as documented. */
function parseNotBefore(
  notBefore: string | undefined,
  delay: string | undefined,
  now: number,
): number | string {
  if (notBefore !== undefined) {
    if (!/^\d+$/.test(notBefore.trim())) {
      return `invalid Upstash-Not-Before "${notBefore}": use a unix timestamp in seconds`;
    }
    return Number(notBefore.trim()) * 1000;
  }
  if (delay !== undefined) {
    const delayMs = parsePublishDuration(delay);
    if (delayMs === undefined)
      return `invalid Upstash-Delay "${delay}": use a number and unit like 10s, 2m, 1h or 1d`;
    return now + delayMs;
  }
  return now;
}

function parseRetries(value: string | undefined, fallback: number): number | string {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value.trim())) return `invalid Upstash-Retries "${value}": use a whole number >= 0`;
  return Number(value.trim());
}

function collectForwardHeaders(headers: Array<[string, string]>): Record<string, string> {
  const forwarded: Record<string, string> = {};
  for (const [name, value] of headers) {
    if (!name.toLowerCase().startsWith(FORWARD_PREFIX)) continue;
    const target = name.slice(FORWARD_PREFIX.length);
    if (target === "" || NOT_FORWARDABLE.has(target.toLowerCase())) continue;
    const existing = Object.keys(forwarded).find((key) => key.toLowerCase() === target.toLowerCase());
    if (existing === undefined) forwarded[target] = value;
    else forwarded[existing] = `${forwarded[existing]}, ${value}`;
  }
  return forwarded;
}

/** Content-based deduplication id: destination, body, Content-Type and forwarded headers, as QStash documents. */
function contentHash(
  url: string,
  body: Buffer,
  contentType: string | undefined,
  forwardHeaders: Record<string, string>,
): string {
  const hash = createHash("sha256");
  const headerLines = Object.entries(forwardHeaders)
    .map(([name, value]) => `${name.toLowerCase()}:${value}`)
    .sort();
  hash.update(JSON.stringify([url, contentType ?? "", headerLines]));
  hash.update(body);
  return `content_${hash.digest("hex")}`;
}
