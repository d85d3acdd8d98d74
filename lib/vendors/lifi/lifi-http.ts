import { DEFAULT_PROVIDER_TIMEOUT_MS, ProviderFailure } from "../../kernel/provider-failure";
import {
  excerpt,
  type FetchLike,
  getWithinDeadline,
  globalFetch,
  type HttpAnswer,
  retryAfterMsOf,
} from "../common/http-get";

export const LIFI_PROVIDER = "lifi";

/**
 * LI.FI counts requests per minute per key (100 with a key by default) and answers 429 (code 1005)
 * with a `ratelimit-reset` header in seconds (docs.li.fi/api-reference/rate-limits): without either,
 * a minute.
 */
const LIFI_RATE_LIMIT_WAIT_MS = 60_000;

export interface LifiHttpOptions {
  baseUrl?: string;
  /** Sent as `x-lifi-api-key`; without one LI.FI applies its public rate limits. */
  apiKey?: string;
  fetch?: FetchLike;
  timeoutMs?: number;
  /** The clock a Retry-After date is read against. */
  now?: () => Date;
}

/** A GET to LI.FI's API (`https://li.quest` unless told otherwise), bounded by the timeout. */
export function lifiGetter(
  options: LifiHttpOptions,
): (path: string, query: URLSearchParams) => Promise<HttpAnswer> {
  const baseUrl = (options.baseUrl ?? "https://li.quest").replace(/\/+$/, "");
  const fetchImpl = options.fetch ?? globalFetch;
  const timeoutMs = options.timeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS;
  const headers: Record<string, string> = { accept: "application/json" };
  if (options.apiKey) headers["x-lifi-api-key"] = options.apiKey;
  return (path, query) =>
    getWithinDeadline(LIFI_PROVIDER, fetchImpl, `${baseUrl}${path}?${query}`, headers, timeoutMs);
}

/** A 429 from LI.FI: unavailable, with how long LI.FI asked callers to stay away. */
export function lifiRateLimited(answer: HttpAnswer, now: Date, what: string): ProviderFailure {
  return new ProviderFailure(
    "unavailable",
    LIFI_PROVIDER,
    `LI.FI is rate limiting ${what}: ${excerpt(answer.body)}`,
    { retryAfterMs: retryAfterMsOf(answer, now, LIFI_RATE_LIMIT_WAIT_MS, "ratelimit-reset") },
  );
}
