import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { ApiError } from "../kernel/errors/api-error";
import { errorBody, preferredLanguage } from "../kernel/errors/error-body";
import { describeError } from "../kernel/log";
import type { AppEnv } from "./env";

/** The body of every 401, identical whatever was wrong with the credential (spec 5). */
export const UNAUTHORIZED_BODY = { error: "Missing or invalid API key" } as const;

export function unauthorized(c: Context<AppEnv>) {
  return c.json(UNAUTHORIZED_BODY, 401);
}

export function respondWithError(c: Context<AppEnv>, error: ApiError) {
  const body = errorBody(error, preferredLanguage(c.req.header("accept-language")), c.get("requestId"));
  if (error.options.retryAfterSeconds !== undefined) {
    c.header("Retry-After", String(Math.max(1, Math.ceil(error.options.retryAfterSeconds))));
  }
  return c.json(body, error.status as ContentfulStatusCode);
}

/** What Hono itself throws for a request it cannot read, in our error model. */
function fromHttpException(exception: HTTPException): ApiError | undefined {
  switch (exception.status) {
    case 400:
      return new ApiError("INVALID_REQUEST", {
        detail: { es: "El JSON del cuerpo está mal formado.", en: "The JSON body is malformed." },
      });
    case 413:
      return new ApiError("PAYLOAD_TOO_LARGE");
    case 415:
      return new ApiError("UNSUPPORTED_MEDIA_TYPE");
    default:
      return undefined;
  }
}

/** Anything thrown while handling a request ends here; nothing internal reaches the body. */
export function handleError(error: unknown, c: Context<AppEnv>) {
  if (error instanceof ApiError) return respondWithError(c, error);
  if (error instanceof HTTPException) {
    if (error.status === 401) return unauthorized(c);
    const mapped = fromHttpException(error);
    if (mapped) return respondWithError(c, mapped);
  }
  c.get("log")?.error("unhandled error", describeError(error));
  return respondWithError(c, new ApiError("INTERNAL_ERROR"));
}
