export interface RetryPolicy {
  /** Further attempts after the first (default 2, at most 10). */
  maxRetries?: number;
  /** The first backoff when the answer gives no Retry-After (default 500 ms, doubled each time, with jitter). */
  baseDelayMs?: number;
  /** A Retry-After longer than this is not waited for: the error is thrown (default 60 s). */
  maxDelayMs?: number;
  /** How to wait (tests pass their own). */
  sleep?: (ms: number) => Promise<void>;
}

/**
 * Methods whose repetition changes nothing the caller sees. PUT and DELETE are left out on purpose:
 * a webhook endpoint's PUT shows its new secret in its first answer only, and a repeated DELETE
 * answers 404 for what the first one did.
 */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * A fetch that retries what is safe to retry: a 429 of the rate limiter (`RATE_LIMITED`, refused
 * before anything ran; a 429 the operation itself answers, like OTP_RESEND_TOO_SOON, is the
 * caller's), and a 503 or a network failure only when the request is idempotent (a GET, or a POST
 * carrying its `Idempotency-Key`, which every attempt repeats) and the answer does not say it is not
 * retryable. Waits what Retry-After says, else backs off exponentially. An aborted request is not
 * retried.
 */
export function retryingFetch(fetcher: typeof fetch, policy: RetryPolicy = {}): typeof fetch {
  const maxRetries = bounded(policy.maxRetries, 2, 0, 10);
  const baseDelayMs = bounded(policy.baseDelayMs, 500, 0, 60_000);
  const maxDelayMs = bounded(policy.maxDelayMs, 60_000, 0, 3_600_000);
  const sleep = policy.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  return async (input, init) => {
    // A copy, so the caller's own Request (the one handed back with the answer) keeps its body.
    const original = new Request(input instanceof Request ? input.clone() : input, init);
    const idempotent = SAFE_METHODS.has(original.method) || original.headers.has("idempotency-key");
    for (let attempt = 0; ; attempt++) {
      const request = original.clone();
      const backoff = baseDelayMs * 2 ** attempt * (0.5 + Math.random() / 2);
      let response: Response;
      try {
        response = await fetcher(request);
      } catch (error) {
        if (!idempotent || attempt >= maxRetries || original.signal.aborted) throw error;
        await sleep(backoff);
        continue;
      }
      if (attempt >= maxRetries || original.signal.aborted || !(await mayRetry(response, idempotent)))
        return response;
      const wait = retryAfterMs(response.headers.get("retry-after")) ?? backoff;
      if (wait > maxDelayMs) return response;
      await response.body?.cancel();
      await sleep(wait);
    }
  };
}

async function mayRetry(response: Response, idempotent: boolean): Promise<boolean> {
  if (response.status !== 429 && response.status !== 503) return false;
  const body = (await response
    .clone()
    .json()
    .catch(() => undefined)) as { error?: { code?: unknown; retryable?: unknown } } | undefined;
  if (response.status === 429) return body?.error?.code === "RATE_LIMITED";
  return idempotent && body?.error?.retryable !== false;
}

/**
 * Retry-After as whole seconds or an HTTP date (RFC 9110: IMF-fixdate, or the obsolete RFC 850 and
 * asctime forms recipients must still accept), in milliseconds from now; anything else is ignored.
 * A number that is not whole seconds ("1.5", "-5") is no date, though Date.parse would make one.
 */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  const text = value?.trim() ?? "";
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  if (text === "" || /^[+-]?[\d.]+$/.test(text) || !/[A-Za-z]/.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function bounded(value: number | undefined, fallback: number, min: number, max: number): number {
  return value === undefined || !Number.isFinite(value)
    ? fallback
    : Math.min(max, Math.max(min, Math.floor(value)));
}
