import { ApiError } from "../../kernel/errors/api-error";
import type { ErrorCode } from "../../kernel/errors/registry";
import type { ProviderFailure, ProviderFailureKind } from "../../kernel/provider-failure";

const CODE_OF: Record<ProviderFailureKind, ErrorCode> = {
  unavailable: "PROVIDER_UNAVAILABLE",
  no_route: "ROUTE_UNAVAILABLE",
  capacity_exceeded: "MENTO_CAPACITY_EXCEEDED",
};

/**
 * The API error a quote answers when a provider fails: a provider that did not answer is
 * PROVIDER_UNAVAILABLE, one with no way to do the trade is ROUTE_UNAVAILABLE, and Mento's trading
 * limits are MENTO_CAPACITY_EXCEEDED. The provider's own words stay in the logs, not the body; how
 * long it asked callers to stay away (a 429) becomes the answer's Retry-After.
 */
export function apiErrorOf(failure: ProviderFailure): ApiError {
  return new ApiError(
    CODE_OF[failure.kind],
    failure.retryAfterMs === undefined ? undefined : { retryAfterSeconds: failure.retryAfterMs / 1000 },
  );
}
