import type { OpenAPIHono } from "@hono/zod-openapi";
import { type ApiScope, OPERATION_SCOPES } from "../tenancy/scopes";
import type { AppEnv } from "./env";
import type { OperationRoute } from "./lazy-operations";

/** The scope of each registered route, by method and Hono path ("POST /api/integrations/swaps/:intentId/confirm"). */
const byRoute = new Map<string, ApiScope>();

/**
 * Reads each partner operation's scope from OPERATION_SCOPES by its operationId: the guard (auth.ts)
 * finds it by the route the request matched (method and Hono path, as the table of operations names
 * them), before the operation's module is loaded.
 */
export function declareOperationScopes(routes: Iterable<OperationRoute>): void {
  for (const route of routes) {
    const scope = route.operationId ? OPERATION_SCOPES[route.operationId] : undefined;
    if (scope) byRoute.set(`${route.method} ${route.path}`, scope);
  }
}

/** Names each partner operation's scope in the document: bearerAuth with the scope as its role, as OpenAPI 3.1 allows. */
export function declareScopesInDocument(app: OpenAPIHono<AppEnv>): void {
  for (const definition of app.openAPIRegistry.definitions) {
    if (definition.type !== "route" || !definition.route.operationId) continue;
    const scope = OPERATION_SCOPES[definition.route.operationId];
    if (scope) definition.route.security = [{ bearerAuth: [scope] }];
  }
}

/** The scope the matched route needs, or undefined when it names none. */
export function scopeOfRoute(method: string, path: string): ApiScope | undefined {
  // A HEAD is answered by the GET route.
  const verb = method.toUpperCase() === "HEAD" ? "GET" : method.toUpperCase();
  return byRoute.get(`${verb} ${path}`);
}
