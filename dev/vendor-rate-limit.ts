/**
 * A vendor's rate limit as the local services enforce it, on their clock: at most `requests` per
 * window of `windowMs` per caller address, and past that a 429 for `blockMs` (Circle: 35 a second,
 * then every request refused for five minutes; LI.FI: per minute, until the window resets).
 */
export interface VendorRateLimit {
  requests: number;
  windowMs: number;
  /** How long a caller that went over is refused; the rest of the window when absent. */
  blockMs?: number;
}

export class VendorRateLimiter {
  readonly #callers = new Map<string, { windowStart: number; count: number; blockedUntil: number }>();

  constructor(
    private readonly limit: VendorRateLimit | undefined,
    private readonly now: () => Date,
  ) {}

  /** Counts a request; answers how long the caller must stay away (ms), or undefined when it may pass. */
  admit(caller: string): number | undefined {
    if (!this.limit) return undefined;
    const now = this.now().getTime();
    const { requests, windowMs, blockMs } = this.limit;
    const windowStart = now - (now % windowMs);
    const state = this.#callers.get(caller) ?? { windowStart, count: 0, blockedUntil: 0 };
    if (state.blockedUntil > now) return state.blockedUntil - now;
    if (state.windowStart !== windowStart) Object.assign(state, { windowStart, count: 0 });
    state.count += 1;
    this.#callers.set(caller, state);
    if (state.count <= requests) return undefined;
    state.blockedUntil = blockMs === undefined ? windowStart + windowMs : now + blockMs;
    return state.blockedUntil - now;
  }
}
