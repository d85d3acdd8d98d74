import type { OpenAPIHono } from "@hono/zod-openapi";
import { type ApiScope, OPERATION_SCOPES } from "../tenancy/scopes";
import type { AppEnv } from "./env";

/** The scope of each registered route, by method and Hono path ("POST /api/integrations/swaps/:intentId/confirm"). */
const byRoute = new Map<string, ApiScope>();

/**
 * Reads each partner operation's scope from OPERATION_SCOPES once its route is registered: the guard
 * (auth.ts) finds it by the route the request matched, and the OpenAPI document names it as the
 * operation's `security` (bearerAuth with the scope as its role, as OpenAPI 3.1 allows).
 */
export function declareOperationScopes(app: OpenAPIHono<AppEnv>): void {
  for (const definition of app.openAPIRegistry.definitions) {
    if (definition.type !== "route" || !definition.route.operationId) continue;
    const scope = OPERATION_SCOPES[definition.route.operationId];
    if (!scope) continue;
    definition.route.security = [{ bearerAuth: [scope] }];
    const honoPath = definition.route.path.replace(/\{(\w+)\}/g, ":$1");
    byRoute.set(`${definition.route.method.toUpperCase()} ${honoPath}`, scope);
  }
}

/** The scope the matched route needs, or undefined when it names none. */
export function scopeOfRoute(method: string, path: string): ApiScope | undefined {
  // A HEAD is answered by the GET route.
  const verb = method.toUpperCase() === "HEAD" ? "GET" : method.toUpperCase();
  return byRoute.get(`${verb} ${path}`);
}
