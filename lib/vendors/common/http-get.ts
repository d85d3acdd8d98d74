import { withinDeadline } from "../../kernel/deadline";
import { ProviderFailure } from "../../kernel/provider-failure";

/** The part of `fetch` the adapters use, so tests and other runtimes can pass their own. */
export type FetchLike = (
  url: string,
  init: { method: "GET"; headers: Record<string, string>; signal: AbortSignal },
) => Promise<{ status: number; text(): Promise<string> }>;

/**
 * The global fetch, called unbound: Workers throw "Illegal invocation" when fetch is called as a
 * method of another object.
 */
export const globalFetch: FetchLike = (url, init) => fetch(url, init);

export interface HttpAnswer {
  status: number;
  body: string;
}

/**
 * One GET whose whole exchange (connection, headers and body) fits in `timeoutMs`. A timeout or a
 * network error is ProviderFailure("unavailable"); any HTTP status comes back for the adapter to read.
 */
export async function getWithinDeadline(
  provider: string,
  fetchImpl: FetchLike,
  url: string,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<HttpAnswer> {
  try {
    return await withinDeadline(provider, timeoutMs, async (signal) => {
      const response = await fetchImpl(url, { method: "GET", headers, signal });
      return { status: response.status, body: await response.text() };
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

/** The start of an answer's body for a failure message: enough to diagnose, never a whole page. */
export function excerpt(body: string): string {
  const flat = body.replace(/\s+/g, " ").trim();
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
