import type { ErrorDefinition } from "./definition";
import { LOOKUP_ERRORS } from "./lookup-errors";
import { REQUEST_ERRORS } from "./request-errors";
import { SERVICE_ERRORS } from "./service-errors";
import { STATE_ERRORS } from "./state-errors";

export type { ErrorDefinition, NextAction, RetryAfter } from "./definition";

/**
 * Every error code the API answers with, in one table: its HTTP status, whether the same request
 * may succeed if retried, what the caller should do next, and its message in Spanish and English.
 * Routes, the error middleware and the OpenAPI document all read it; it is kept in four parts by
 * kind of refusal, in the order docs/errors.md lists them.
 */
export const ERRORS = {
  ...REQUEST_ERRORS,
  ...LOOKUP_ERRORS,
  ...STATE_ERRORS,
  ...SERVICE_ERRORS,
} as const satisfies Record<string, ErrorDefinition>;

export type ErrorCode = keyof typeof ERRORS;
export const ERROR_CODES = Object.keys(ERRORS) as ErrorCode[];
