import type { Context, MiddlewareHandler } from "hono";
import { writeRequestLog } from "../audit/request-logs";
import type { ServiceContext } from "../kernel/context";
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
      // The request's log is written after the response, on its own session, before it is released.
      const logged = partnerRequestLog(c, services, started);
      afterResponse(
        c,
        logged.then(() => session.release()),
      );
      log.info("request", {
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        durationMs: Math.round(performance.now() - started),
      });
    }
  };
}

/**
 * An API key's request, logged for its organization (docs/tenancy.md, "Request logs"): the bodies
 * are read from a clone of each now, and written, redacted, once the response is on its way. The
 * dashboard and the miniapp act without a key and are not logged here.
 */
function partnerRequestLog(c: Context<AppEnv>, services: ServiceContext, started: number): Promise<void> {
  const caller = c.get("caller");
  if (!caller || services.actor?.type !== "api_key") return Promise.resolve();
  const requestText =
    c.req.raw.body === null ? Promise.resolve(undefined) : c.req.text().catch(() => undefined);
  const json = c.res.headers.get("content-type")?.includes("application/json");
  const responseText = json
    ? c.res
        .clone()
        .text()
        .catch(() => undefined)
    : Promise.resolve(undefined);
  const entry = {
    requestId: c.get("requestId"),
    organizationId: caller.organizationId,
    integrationId: caller.integrationId,
    keyId: caller.keyId,
    method: c.req.method,
    path: c.req.path,
    status: c.res.status,
    latencyMs: Math.round(performance.now() - started),
    idempotencyKey: c.req.header("idempotency-key") ?? null,
    ip: services.actor.ip,
    at: services.clock.now(),
  };
  return Promise.all([requestText, responseText]).then(([requestBody, responseBody]) =>
    writeRequestLog(services, services.db, { ...entry, requestBody, responseBody }),
  );
}
