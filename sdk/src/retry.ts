export interface RetryPolicy {
  /** Further attempts after the first (default 2). */
  maxRetries?: number;
  /** The first backoff when the answer gives no Retry-After (default 500 ms, doubled each time, with jitter). */
  baseDelayMs?: number;
  /** A Retry-After longer than this is not waited for: the error is thrown (default 60 s). */
  maxDelayMs?: number;
  /** How to wait (tests pass their own). */
  sleep?: (ms: number) => Promise<void>;
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS", "PUT", "DELETE"]);

/**
 * A fetch that retries what is safe to retry: a 429 always (the API refuses it before doing
 * anything), a 503 or a network failure only when the request is idempotent (a GET, PUT or DELETE,
 * or a POST carrying its `Idempotency-Key`, which every attempt repeats). Waits what Retry-After
 * says, else backs off exponentially.
 */
export function retryingFetch(fetcher: typeof fetch, policy: RetryPolicy = {}): typeof fetch {
  const maxRetries = policy.maxRetries ?? 2;
  const baseDelayMs = policy.baseDelayMs ?? 500;
  const maxDelayMs = policy.maxDelayMs ?? 60_000;
  const sleep = policy.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  return async (input, init) => {
    const original = new Request(input, init);
    const idempotent = SAFE_METHODS.has(original.method) || original.headers.has("idempotency-key");
    for (let attempt = 0; ; attempt++) {
      const request = original.clone();
      const backoff = baseDelayMs * 2 ** attempt * (0.5 + Math.random() / 2);
      let response: Response;
      try {
        response = await fetcher(request);
      } catch (error) {
        if (!idempotent || attempt >= maxRetries) throw error;
        await sleep(backoff);
        continue;
      }
      const retryable = response.status === 429 || (response.status === 503 && idempotent);
      if (!retryable || attempt >= maxRetries) return response;
      const wait = retryAfterMs(response.headers.get("retry-after")) ?? backoff;
      if (wait > maxDelayMs) return response;
      await response.body?.cancel();
      await sleep(wait);
    }
  };
}

/** Retry-After as seconds or an HTTP date, in milliseconds from now. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === "") return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
