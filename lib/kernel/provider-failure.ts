/**
 * How an outside party (a vendor adapter) fails: always with a ProviderFailure, never with whatever
 * its transport threw, so each area maps the three kinds to its own errors.
 */
export type ProviderFailureKind = "unavailable" | "no_route" | "capacity_exceeded";

/**
 * Why a provider gave no price. `unavailable`: it did not answer in time, failed, or answered
 * something unreadable (retry later). `no_route`: it answered clearly that it has no way to do this
 * trade. `capacity_exceeded`: Mento's trading limits would refuse this amount now.
 */
export class ProviderFailure extends Error {
  constructor(
    readonly kind: ProviderFailureKind,
    readonly provider: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "ProviderFailure";
  }
}

/** How long an adapter waits for one outside call unless told otherwise. */
export const DEFAULT_PROVIDER_TIMEOUT_MS = 5_000;
