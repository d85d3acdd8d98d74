/**
 * How an outside party (a vendor adapter) fails: always with a ProviderFailure, never with whatever
 * its transport threw, so each area maps the three kinds to its own errors.
 */
export type ProviderFailureKind = "unavailable" | "no_route" | "capacity_exceeded" | "trading_halted";

/**
 * Why a provider gave no price. `unavailable`: it did not answer in time, failed, or answered
 * something unreadable (retry later). `no_route`: it answered clearly that it has no way to do this
 * trade. `capacity_exceeded`: Mento's trading limits would refuse this amount now. `trading_halted`:
 * Mento's circuit breaker halts the pool's rate feed (it resets after its cooldown).
 */
export class ProviderFailure extends Error {
  /**
   * How long the provider asked callers to stay away (a 429's Retry-After, Circle's documented
   * five-minute block, a spent call budget), when it said so: whoever polls waits at least this long.
   */
  readonly retryAfterMs: number | undefined;

  constructor(
    readonly kind: ProviderFailureKind,
    readonly provider: string,
    message: string,
    options?: { cause?: unknown; retryAfterMs?: number },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ProviderFailure";
    this.retryAfterMs = options?.retryAfterMs;
  }
}

/** How long an adapter waits for one outside call unless told otherwise. */
export const DEFAULT_PROVIDER_TIMEOUT_MS = 5_000;
