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

/**
 * POSTs one signed event. Redirects are not followed (a 3xx is a failed attempt: the partner set the
 * URL, and following it could reach a host the URL rules refuse); the timeout covers the whole
 * answer, body included, and only the excerpt of the body is read.
 */
export async function postWebhook(
  url: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
): Promise<PostOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "user-agent": "copm-integrations-webhooks/1",
        ...headers,
      },
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(timeoutMs),
    });
    const excerpt = await readExcerpt(response);
    return {
      statusCode: response.status,
      retryAfter: response.headers.get("retry-after"),
      excerpt,
      ...(response.status >= 300 && response.status < 400 ? { error: "redirects are not followed" } : {}),
      durationMs: elapsed(),
    };
  } catch (error) {
    return { ...describeFailure(error, timeoutMs), durationMs: elapsed() };
  }
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
