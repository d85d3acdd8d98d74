import type { MiddlewareHandler } from "hono";
import { newId } from "../kernel/ids";
import { afterResponse } from "./after-response";
import { type AppDeps, serviceContext } from "./deps";
import type { AppEnv } from "./env";

const INBOUND_REQUEST_ID = /^[A-Za-z0-9_.:-]{8,128}$/;

/**
 * Gives each request an id (a caller's own X-Request-Id is kept when it is sane), a logger that
 * carries it, and a database session that is released when the response is done.
 */
export function requestContext(deps: AppDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const inbound = c.req.header("x-request-id");
    const requestId = inbound && INBOUND_REQUEST_ID.test(inbound) ? inbound : newId("req", deps.clock);
    const log = deps.logger.child({ requestId });
    const started = performance.now();
    c.set("requestId", requestId);
    c.set("log", log);
    c.set("deps", deps);
    c.header("X-Request-Id", requestId);

    const session = deps.database.open();
    const services = serviceContext(deps, session.db, log);
    c.set("services", services);
    try {
      await next();
    } finally {
      // The request's transactions are over: what they left for their end (queued webhooks) goes now.
      await services.afterWork.run(services);
      afterResponse(c, session.release());
      log.info("request", {
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        durationMs: Math.round(performance.now() - started),
      });
    }
  };
}
