import { retryAfterMs } from "../../../sdk/src/retry";
import { withinDeadline } from "../../kernel/deadline";
import { ProviderFailure } from "../../kernel/provider-failure";

/** The part of `fetch` the adapters use, so tests and other runtimes can pass their own. */
export type FetchLike = (
  url: string,
  init: { method: "GET" | "POST"; headers: Record<string, string>; signal: AbortSignal },
) => Promise<{ status: number; text(): Promise<string>; headers?: { get(name: string): string | null } }>;

/**
 * The global fetch, called unbound: Workers throw "Illegal invocation" when fetch is called as a
 * method of another object.
 */
export const globalFetch: FetchLike = (url, init) => fetch(url, init);

export interface HttpAnswer {
  status: number;
  body: string;
  /** The answer's header of this name (case-insensitive), when it has one. */
  header?(name: string): string | undefined;
}

/**
 * One request whose whole exchange (connection, headers and body) fits in `timeoutMs`. A timeout or
 * a network error is ProviderFailure("unavailable"); any HTTP status comes back for the adapter to read.
 */
export async function requestWithinDeadline(
  provider: string,
  fetchImpl: FetchLike,
  url: string,
  init: { method: "GET" | "POST"; headers: Record<string, string> },
  timeoutMs: number,
): Promise<HttpAnswer> {
  try {
    return await withinDeadline(provider, timeoutMs, async (signal) => {
      const response = await fetchImpl(url, { ...init, signal });
      const body = await response.text();
      return {
        status: response.status,
        body,
        header: (name: string) => response.headers?.get(name) ?? undefined,
      };
    });
  } catch (error) {
    if (error instanceof ProviderFailure) throw error;
    throw new ProviderFailure(
      "unavailable",
      provider,
      `${provider} could not be reached: ${describe(error)}`,
      {
        cause: error,
      },
    );
  }
}

/** A GET within the deadline (requestWithinDeadline). */
export function getWithinDeadline(
  provider: string,
  fetchImpl: FetchLike,
  url: string,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<HttpAnswer> {
  return requestWithinDeadline(provider, fetchImpl, url, { method: "GET", headers }, timeoutMs);
}

/**
 * How long a 429 asks the caller to wait: its Retry-After (read as the SDK reads the service's own,
 * retryAfterMs), else the provider's own reset header in whole seconds (LI.FI's `ratelimit-reset`),
 * else `fallbackMs`, the block the provider documents. Never less than a second.
 */
export function retryAfterMsOf(
  answer: HttpAnswer,
  now: Date,
  fallbackMs: number,
  resetHeader?: string,
): number {
  const asked =
    retryAfterMs(answer.header?.("retry-after") ?? null, now.getTime()) ??
    (resetHeader ? retryAfterMs(answer.header?.(resetHeader) ?? null, now.getTime()) : undefined);
  return Math.max(1000, asked ?? fallbackMs);
}

/** The start of an answer's body for a failure message: enough to diagnose, never a whole page. */
export function excerpt(body: string): string {
  const flat = body.replace(/\s+/g, " ").trim();
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
