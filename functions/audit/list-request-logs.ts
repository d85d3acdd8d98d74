import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { listRequestLogs, REQUEST_LOGS_PAGE_LIMIT, type RequestLogRow } from "../../lib/audit/request-logs";
import type { AppEnv } from "../../lib/http/env";
import { errorResponses } from "../../lib/http/openapi-errors";
import { partnerContext } from "../../lib/http/partner-context";
import type { ResponseBody } from "../../lib/http/route-types";
import { instantQuery } from "../../lib/http/since-query";

export const requestLogSchema = z
  .object({
    requestId: z.string().openapi({ description: "The request's X-Request-Id." }),
    method: z.string(),
    path: z.string(),
    status: z.number().int(),
    errorCode: z.string().nullable(),
    keyId: z.string().openapi({ description: "The API key that made the request." }),
    integrationId: z.string(),
    latencyMs: z.number().int(),
    idempotencyKey: z.string().nullable(),
    ip: z.string().nullable(),
    requestBody: z.string().nullable().openapi({
      description:
        "The JSON body sent, secrets, keys, emails and BRE-B keys redacted, at most 8,192 characters.",
    }),
    responseBody: z.string().nullable().openapi({
      description: "The JSON body answered, redacted alike, at most 16,384 characters.",
    }),
    at: z.string().datetime(),
  })
  .openapi("RequestLog");

/** The query the route takes; the dashboard's request logs page checks its filters with it too. */
export const listRequestLogsQuery = z
  .object({
    requestId: z.string().min(1).max(128).optional(),
    status: z.coerce.number().int().min(100).max(599).optional(),
    path: z
      .string()
      .startsWith("/")
      .max(200)
      .optional()
      .openapi({ description: "Requests whose path starts with this (`/api/integrations/settlements`)." }),
    from: instantQuery("From this time (inclusive).").optional(),
    to: instantQuery("Before this time (exclusive).").optional(),
    limit: z.coerce.number().int().min(1).max(REQUEST_LOGS_PAGE_LIMIT).default(50),
    cursor: z.string().min(1).max(512).optional(),
  })
  .strict();

export const route = createRoute({
  method: "get",
  path: "/api/integrations/request-logs",
  operationId: "listRequestLogs",
  summary: "The organization's API requests of the last 7 days",
  description:
    "Each request an API key of the organization made in the last 7 days, newest first: method, path, status, error code, request id, key, latency, idempotency key and the request and response bodies with secrets, keys, emails and BRE-B keys redacted. Written after each response.",
  tags: ["Audit"],
  request: { query: listRequestLogsQuery },
  responses: {
    200: {
      description: "A page of request logs",
      content: {
        "application/json": {
          schema: z.object({ data: z.array(requestLogSchema), nextCursor: z.string().nullable() }),
        },
      },
    },
    ...errorResponses([], "partner"),
  },
});

/** What this operation answers, for its callers and tests. */
export type ListRequestLogsResponse = ResponseBody<typeof route, 200>;

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const query = c.req.valid("query");
    const context = partnerContext(c);
    const page = await listRequestLogs(context, context.caller.organizationId, {
      limit: query.limit,
      ...(query.requestId ? { requestId: query.requestId } : {}),
      ...(query.status ? { status: query.status } : {}),
      ...(query.path ? { path: query.path } : {}),
      ...(query.from ? { from: new Date(query.from) } : {}),
      ...(query.to ? { to: new Date(query.to) } : {}),
      ...(query.cursor ? { cursor: query.cursor } : {}),
    });
    return c.json({ data: page.logs.map(requestLogView), nextCursor: page.nextCursor }, 200);
  });
}

function requestLogView(row: RequestLogRow): z.infer<typeof requestLogSchema> {
  return {
    requestId: row.id,
    method: row.method,
    path: row.path,
    status: row.status,
    errorCode: row.errorCode,
    keyId: row.keyId,
    integrationId: row.integrationId,
    latencyMs: row.latencyMs,
    idempotencyKey: row.idempotencyKey,
    ip: row.ip,
    requestBody: row.requestBody,
    responseBody: row.responseBody,
    at: row.at.toISOString(),
  };
}
