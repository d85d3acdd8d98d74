import type { OpenAPIHono, RouteConfig, RouteHandler } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { ApiError } from "../kernel/errors/api-error";
import { callerOfIntegration } from "../tenancy/authenticate";
import type { AppEnv } from "./env";
import { respondWithError } from "./errors";

/** BRE-B routes for partners (Bearer key) and, in mock mode, the same routes for the miniapp (no key). */
const BREB_PARTNER_PREFIX = "/api/integrations/breb";
export const BREB_MINIAPP_PREFIX = "/api/breb";

/**
 * Registers one BRE-B route under both prefixes with the same handler: the partner path is
 * documented; the miniapp path, which exists only in mock mode, is left out of the document.
 */
export function openapiBreb<R extends RouteConfig>(
  app: OpenAPIHono<AppEnv>,
  route: R,
  handler: RouteHandler<R, AppEnv>,
): void {
  if (!route.path.startsWith(`${BREB_PARTNER_PREFIX}/`)) {
    throw new Error(`${route.path} is not a BRE-B route`);
  }
  app.openapi(route, handler);
  const miniapp = {
    ...route,
    path: route.path.replace(BREB_PARTNER_PREFIX, BREB_MINIAPP_PREFIX),
    hide: true,
  };
  app.openapi(miniapp, handler as unknown as RouteHandler<typeof miniapp, AppEnv>);
}

/** `/api/breb/*` exists only in mock mode with MINIAPP_INTEGRATION_ID set; anywhere else it is 404. */
export function miniappGate(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const { config } = c.get("deps");
    if (config.MODE !== "mock" || !config.MINIAPP_INTEGRATION_ID) {
      return respondWithError(c, new ApiError("NOT_FOUND"));
    }
    await next();
  };
}

/** After the gate and the per-IP limit: the miniapp acts as its configured integration. */
export function miniappCaller(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const integrationId = c.get("deps").config.MINIAPP_INTEGRATION_ID as string;
    const caller = await callerOfIntegration(c.get("services"), integrationId);
    if (!caller) {
      c.get("log").warn("MINIAPP_INTEGRATION_ID names no integration", { integrationId });
      return respondWithError(c, new ApiError("NOT_FOUND"));
    }
    c.set("caller", caller);
    await next();
  };
}
