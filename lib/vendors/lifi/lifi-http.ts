import { DEFAULT_PROVIDER_TIMEOUT_MS } from "../../kernel/provider-failure";
import { type FetchLike, getWithinDeadline, globalFetch, type HttpAnswer } from "../common/http-get";

export const LIFI_PROVIDER = "lifi";

export interface LifiHttpOptions {
  baseUrl?: string;
  /** Sent as `x-lifi-api-key`; without one LI.FI applies its public rate limits. */
  apiKey?: string;
  fetch?: FetchLike;
  timeoutMs?: number;
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
