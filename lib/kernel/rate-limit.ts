import type { Clock } from "./clock";

/** The interface of Cloudflare's rate-limiting binding, which the worker uses as is. */
export interface RateLimiter {
  limit(options: { key: string }): Promise<{ success: boolean }>;
}

export interface RateLimits {
  /** Partner routes, per API key. */
  perKey: RateLimiter;
  /** Partner routes, per organization, over all its keys: a new key buys no new budget. */
  perOrganization: RateLimiter;
  /** Routes without a partner key (health, docs, admin), per client IP. */
  perIp: RateLimiter;
  /** The window, told to a refused caller as Retry-After. */
  periodSeconds: number;
}

/**
 * The same contract in one process (tests, Node scripts): at most `limit` calls per key in each
 * fixed window of `periodSeconds`, on the injected clock.
 */
export class FixedWindowRateLimiter implements RateLimiter {
  readonly #windows = new Map<string, { start: number; count: number }>();

  constructor(private readonly options: { limit: number; periodSeconds: number; clock: Clock }) {}

  async limit({ key }: { key: string }): Promise<{ success: boolean }> {
    const now = this.options.clock.now().getTime();
    const periodMs = this.options.periodSeconds * 1000;
    const windowStart = now - (now % periodMs);
    const current = this.#windows.get(key);
    if (!current || current.start !== windowStart) {
      if (this.#windows.size > 10_000) this.#forgetOldWindows(windowStart);
      this.#windows.set(key, { start: windowStart, count: 1 });
      return { success: true };
    }
    current.count += 1;
    return { success: current.count <= this.options.limit };
  }

  #forgetOldWindows(windowStart: number) {
    for (const [key, window] of this.#windows) if (window.start !== windowStart) this.#windows.delete(key);
  }
}
