import type { MiddlewareHandler } from "hono";
import { ApiError } from "../kernel/errors/api-error";
import type { AppEnv } from "./env";

/**
 * The API's dated versions, oldest first; the last is current, and a request without the header is
 * answered at it. A version lives at least twelve months after the next one is dated
 * (docs/versioning.md); breaking changes get a new date, additions do not.
 */
export const API_VERSIONS = ["2026-11-25"] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];
export const CURRENT_API_VERSION: ApiVersion = API_VERSIONS[API_VERSIONS.length - 1] as ApiVersion;
export const API_VERSION_HEADER = "API-Version";

const known = new Set<string>(API_VERSIONS);

/**
 * Reads `API-Version` (a date, `YYYY-MM-DD`) before anything else answers: an unknown one is a 400
 * naming the known ones, so an integration never gets a shape it was not written against. Every
 * response says, in the same header, the version it was rendered at (the error too).
 */
export function apiVersion(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const asked = c.req.header(API_VERSION_HEADER)?.trim();
    c.header(API_VERSION_HEADER, CURRENT_API_VERSION);
    if (asked !== undefined && !known.has(asked)) {
      throw new ApiError("API_VERSION_UNKNOWN", {
        detail: {
          en: `(${JSON.stringify(asked.slice(0, 40))}; known: ${API_VERSIONS.join(", ")})`,
          es: `(${JSON.stringify(asked.slice(0, 40))}; conocidas: ${API_VERSIONS.join(", ")})`,
        },
        extras: { knownVersions: [...API_VERSIONS] },
      });
    }
    const version = (asked ?? CURRENT_API_VERSION) as ApiVersion;
    c.set("apiVersion", version);
    await next();
    c.header(API_VERSION_HEADER, version);
  };
}
