import { ApiError } from "../../kernel/errors/api-error";
import type { ErrorCode } from "../../kernel/errors/registry";
import type { ProviderFailure, ProviderFailureKind } from "../../kernel/provider-failure";

const CODE_OF: Record<ProviderFailureKind, ErrorCode> = {
  unavailable: "PROVIDER_UNAVAILABLE",
  no_route: "ROUTE_UNAVAILABLE",
  capacity_exceeded: "MENTO_CAPACITY_EXCEEDED",
  // The specification's closed list has no code of its own for a breaker's halt: it is capacity
  // Mento does not have now, and frees with time, as a trading limit does.
  trading_halted: "MENTO_CAPACITY_EXCEEDED",
};

/**
 * The API error a quote answers when a provider fails: a provider that did not answer is
 * PROVIDER_UNAVAILABLE, one with no way to do the trade is ROUTE_UNAVAILABLE, and Mento's trading
 * limits and its circuit breaker's halts are MENTO_CAPACITY_EXCEEDED. The provider's own words stay in the logs, not the body; how
 * long it asked callers to stay away (a 429) becomes the answer's Retry-After.
 */
export function apiErrorOf(failure: ProviderFailure): ApiError {
  return new ApiError(
    CODE_OF[failure.kind],
    failure.retryAfterMs === undefined ? undefined : { retryAfterSeconds: failure.retryAfterMs / 1000 },
  );
}
