import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Context, MiddlewareHandler, Next } from "hono";
import type { AppEnv } from "./env";

/** A route module: what it registers on an app (its route, validators and handler). */
export interface OperationModule {
  register(app: OpenAPIHono<AppEnv>): void;
}

/** One route an operation serves: its method, its Hono path, and its document's operationId. */
export interface OperationRoute {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: string;
  operationId?: string;
}

/** An operation as the worker knows it before its module is loaded (lib/composition/operations/). */
export interface LazyOperation {
  load(): Promise<OperationModule>;
  routes: readonly OperationRoute[];
}

type Handler = (c: Context<AppEnv>, next: Next) => unknown;

/**
 * Registers each of `operation`'s routes on `app` by method and path alone. Its module is loaded, and
 * registered on an app of its own made by `operationApp`, at the first request to one of them: a
 * worker's isolate evaluates a route's schemas and code when it is first asked for, not at start.
 * The handlers the module registered (its validators and its handler) then run in order in the
 * request's own context, after the app's middleware, exactly where they would have run had the module
 * registered them on `app` itself.
 */
export function registerLazily(
  app: OpenAPIHono<AppEnv>,
  operation: LazyOperation,
  operationApp: () => OpenAPIHono<AppEnv>,
): void {
  let loaded: Promise<Map<string, Handler[]>> | undefined;
  const handlersOf = () => {
    loaded ??= operation
      .load()
      .then((module) => {
        const own = operationApp();
        module.register(own);
        const byRoute = new Map<string, Handler[]>();
        for (const { method, path, handler } of own.routes) {
          const key = `${method} ${path}`;
          byRoute.set(key, [...(byRoute.get(key) ?? []), handler as Handler]);
        }
        return byRoute;
      })
      .catch((error: unknown) => {
        // Neither a failed import nor a failed registration is kept: the next request tries again. (A
        // module that threw while evaluating throws the same error again: ES modules keep it.)
        loaded = undefined;
        throw error;
      });
    return loaded;
  };
  for (const route of operation.routes) {
    const key = `${route.method} ${route.path}`;
    const lazy: MiddlewareHandler<AppEnv> = async (c, next) => {
      const handlers = (await handlersOf()).get(key);
      if (!handlers) throw new Error(`the module of ${key} no longer registers it: run npm run docs`);
      await run(handlers, c, next);
      return c.finalized ? c.res : undefined;
    };
    app.on(route.method, route.path, lazy);
  }
}

/**
 * Runs `handlers` as Hono's compose runs a route's handlers: each may answer, or call the next; past
 * the last, the app's own `next`. An error is left to the app's compose, which answers it with the
 * app's error handler, as it would an error of a handler registered on the app.
 */
async function run(handlers: Handler[], c: Context<AppEnv>, next: Next): Promise<void> {
  let index = -1;
  const dispatch = async (i: number): Promise<void> => {
    if (i <= index) throw new Error("next() called multiple times");
    index = i;
    const handler = handlers[i];
    if (!handler) {
      if (i === handlers.length) await next();
      return;
    }
    const res = await handler(c, () => dispatch(i + 1));
    if (res instanceof Response && !c.finalized) c.res = res;
  };
  await dispatch(0);
}
