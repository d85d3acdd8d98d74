import type { MiddlewareHandler } from "hono";
import { ApiError } from "../kernel/errors/api-error";
import type { AppEnv } from "./env";
import { validationError } from "./validation";

/**
 * Where the providers' signed callbacks are served (functions/payouts/provider-callback.ts,
 * functions/identity/kyc-callback.ts). They are not the partner API: a provider's own `API-Version`
 * header is its own and never read, and no key or rate limit applies (the signature is the check).
 */
export const CALLBACKS_PREFIX = "/callbacks";

export function isCallback(path: string): boolean {
  return path.startsWith(`${CALLBACKS_PREFIX}/`);
}

/**
 * What every callback refuses before its handler checks the signature on the raw body, as every other
 * operation does before its handler runs: a body that is not JSON (415) and any query parameter (a
 * callback takes none: 400 naming each).
 */
export function callbackGuards(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const media = c.req.header("content-type")?.split(";")[0]?.trim().toLowerCase();
    if (media !== "application/json") throw new ApiError("UNSUPPORTED_MEDIA_TYPE");
    const names = [...new Set(new URL(c.req.url).searchParams.keys())];
    if (names.length > 0) {
      throw validationError("query", [{ code: "unrecognized_keys", keys: names, path: [], message: "" }]);
    }
    await next();
  };
}

/**
 * The answer to a callback its check refused: a wrong or missing signature is 401
 * CALLBACK_SIGNATURE_INVALID (nothing of the body was read); a signed body that is not JSON or not the
 * documented shape is 400 INVALID_REQUEST naming its fields, so the provider sees its own fault.
 */
export function refusedCallback(
  refusal:
    | { refused: "signature" }
    | { refused: "body"; issues: ReadonlyArray<{ path: PropertyKey[]; message: string; code?: string }> },
): ApiError {
  return refusal.refused === "body"
    ? validationError("json", refusal.issues)
    : new ApiError("CALLBACK_SIGNATURE_INVALID");
}
