/** What an error code is: its HTTP status, retryability, next action, messages and Retry-After. */
export type NextAction =
  | "FIX_REQUEST"
  | "RETRY"
  | "RETRY_LATER"
  | "CREATE_NEW_QUOTE"
  | "USE_EXISTING_ORDER"
  | "USE_NEW_IDEMPOTENCY_KEY"
  | "CHECK_ORDER"
  | "SEND_NEW_OTP"
  | "COMPLETE_KYC"
  | "DO_NOT_SEND_FUNDS"
  | "CHECK_PAYOUT"
  | "PREPARE_NEW_SWAP"
  | "SIGN_IN_WITH_WALLET"
  | "CONTACT_SUPPORT";

/**
 * Whether the API's answer with the code carries `Retry-After` (whole seconds, at least 1): `always`, on
 * every answer; `when-known`, only when the service knows how long to wait (a provider said so). A code
 * without it never carries the header. The OpenAPI document declares the header from this
 * (lib/http/openapi-errors.ts), and docs/errors.md lists it.
 */
export type RetryAfter = "always" | "when-known";

export interface ErrorDefinition {
  status: 400 | 401 | 403 | 404 | 405 | 409 | 413 | 415 | 429 | 500 | 503;
  retryable: boolean;
  nextAction: NextAction;
  message: { es: string; en: string };
  retryAfter?: RetryAfter;
}
