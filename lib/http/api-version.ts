import type { MiddlewareHandler } from "hono";
import { ApiError } from "../kernel/errors/api-error";
import { API_VERSION_HEADER, API_VERSIONS, type ApiVersion, CURRENT_API_VERSION } from "./api-versions";
import { isCallback } from "./callbacks";
import type { AppEnv } from "./env";

const known = new Set<string>(API_VERSIONS);

/**
 * Reads `API-Version` (a date, `YYYY-MM-DD`) before anything else answers: an unknown one is a 400
 * naming the known ones, so an integration never gets a shape it was not written against. Every
 * response says, in the same header, the version it was rendered at (the error too). Providers'
 * callbacks are not the partner API: the header a provider sends is its own and never read, and the
 * answer is rendered at the current version, which it names like every other.
 */
export function apiVersion(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    c.header(API_VERSION_HEADER, CURRENT_API_VERSION);
    const asked = readsApiVersion(c.req.path) ? c.req.header(API_VERSION_HEADER)?.trim() : undefined;
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

/** Whether a request's own `API-Version` is read (and declared in the document): everywhere but callbacks. */
export function readsApiVersion(path: string): boolean {
  return !isCallback(path);
}
