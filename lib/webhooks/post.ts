import { hostAddressProblem } from "./endpoint-url";
import type { HostResolver } from "./host-resolver";

/** What one attempt got back: a status code and an excerpt of the body, or why there was none. */
export interface PostOutcome {
  statusCode?: number;
  retryAfter?: string | null;
  excerpt?: string;
  /** What the partner sees in the attempt log. */
  error?: string;
  /** What only the operator's log says: the network's own reason behind "connection failed". */
  cause?: string;
  durationMs: number;
}

/**
 * The one thing partners are told of any failure to connect (refused, reset, unreachable, a name
 * that does not resolve or resolves to a private address, TLS): telling them apart would turn the
 * attempt log into a scanner of what the delivery worker can reach.
 */
export const CONNECTION_FAILED = "connection failed";

/** The most of a receiver's answer kept per attempt. */
export const RESPONSE_EXCERPT_CHARS = 1_024;

/** One signed event to POST: where, what, how long to wait, and whether the host's addresses are judged. */
interface WebhookPostRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  /** False only for mock mode's local receivers; every other host must resolve to public addresses only. */
  checkAddresses: boolean;
}

/**
 * How an attempt is sent, per runtime (lib/composition/providers.ts). Either way redirects are not
 * followed (a 3xx is a failed attempt: the partner set the URL, and following it could reach a host
 * the URL rules refuse); the timeout covers the whole answer, body included, and only the excerpt of
 * the body is read.
 */
export type WebhookPost = (request: WebhookPostRequest) => Promise<PostOutcome>;

/**
 * Workers: the host's addresses are resolved (DNS over HTTPS) and judged, then `fetch` posts. The
 * fetch resolves the name again, so a name that flips its answer between the two is not caught
 * here; Workers reach only the public internet, which is what stands behind this check there.
 */
export function fetchWebhookPost(resolve: HostResolver): WebhookPost {
  return async (request) => {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    if (request.checkAddresses) {
      const refusal = await refusedHost(resolve, new URL(request.url).hostname);
      if (refusal) return { error: CONNECTION_FAILED, cause: refusal, durationMs: elapsed() };
    }
    try {
      const response = await fetch(request.url, {
        method: "POST",
        headers: postHeaders(request.headers),
        body: request.body,
        redirect: "manual",
        signal: AbortSignal.timeout(request.timeoutMs),
      });
      const excerpt = await readExcerpt(response);
      return answered(response.status, response.headers.get("retry-after"), excerpt, elapsed());
    } catch (error) {
      return { ...describeFailure(error, request.timeoutMs), durationMs: elapsed() };
    }
  };
}

/** Why a host must not be connected to, from all the addresses it resolves to now, or undefined. */
async function refusedHost(resolve: HostResolver, hostname: string): Promise<string | undefined> {
  try {
    return addressesRefusal(await resolve(hostname.replace(/\.$/, "")));
  } catch {
    return "the host does not resolve";
  }
}

/** Why these addresses of a host must not be connected to (none, or any not public), or undefined. */
export function addressesRefusal(addresses: readonly string[]): string | undefined {
  if (addresses.length === 0) return "the host does not resolve";
  return addresses.map(hostAddressProblem).find((problem) => problem !== undefined);
}

export function postHeaders(headers: Record<string, string>): Record<string, string> {
  return { "content-type": "application/json", "user-agent": "copm-integrations-webhooks/1", ...headers };
}

/** What an answer was: its status, Retry-After and excerpt; a 3xx is a failed attempt. */
export function answered(
  statusCode: number,
  retryAfter: string | null,
  excerpt: string,
  durationMs: number,
): PostOutcome {
  return {
    statusCode,
    retryAfter,
    excerpt,
    ...(statusCode >= 300 && statusCode < 400 ? { error: "redirects are not followed" } : {}),
    durationMs,
  };
}

async function readExcerpt(response: Response): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  try {
    while (text.length < RESPONSE_EXCERPT_CHARS) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } catch {
    // The status line decides the attempt; a body cut short by the timeout is kept as far as it got.
  }
  await reader.cancel().catch(() => undefined);
  return text.slice(0, RESPONSE_EXCERPT_CHARS);
}

/**
 * Why there was no answer, in words that never repeat the URL. A timeout says so (the partner's
 * server was slow: with https on 443 only and private addresses refused, it tells nothing of the
 * network); every other failure is CONNECTION_FAILED, its code kept for the operator.
 */
function describeFailure(error: unknown, timeoutMs: number): Pick<PostOutcome, "error" | "cause"> {
  if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")) {
    return { error: `no answer within ${timeoutMs} ms` };
  }
  const code = (error as { cause?: { code?: unknown } })?.cause?.code;
  return { error: CONNECTION_FAILED, cause: typeof code === "string" ? code : "fetch failed" };
}
