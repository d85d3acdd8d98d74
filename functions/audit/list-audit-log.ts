import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { AUDIT_ACTIONS, AUDIT_ACTOR_TYPES } from "../../lib/audit/actions";
import { AUDIT_PAGE_LIMIT, type AuditEventRow, listAuditEvents } from "../../lib/audit/list";
import type { AppEnv } from "../../lib/http/env";
import { errorResponses } from "../../lib/http/openapi-errors";
import { partnerContext } from "../../lib/http/partner-context";
import type { ResponseBody } from "../../lib/http/route-types";
import { instantQuery } from "../../lib/http/since-query";

export const auditEventSchema = z
  .object({
    id: z.string().openapi({ example: "aud_01KAZ6XQ4R0000000000000000" }),
    action: z.enum(AUDIT_ACTIONS),
    actor: z.object({
      type: z.enum(AUDIT_ACTOR_TYPES),
      id: z.string().openapi({ description: "The member's id, the API key's id, `operator` or `service`." }),
      ip: z.string().nullable().openapi({ description: "The client address the runtime vouched for." }),
    }),
    target: z.object({ type: z.string(), id: z.string() }),
    before: z
      .record(z.string(), z.unknown())
      .nullable()
      .openapi({ description: "The changed fields before; never a secret." }),
    after: z
      .record(z.string(), z.unknown())
      .nullable()
      .openapi({ description: "The changed fields after; never a secret." }),
    at: z.string().datetime(),
  })
  .openapi("AuditEvent");

const querySchema = z
  .object({
    type: z.enum(AUDIT_ACTIONS).optional().openapi({ description: "Only changes of this action." }),
    from: instantQuery("From this time (inclusive).").optional(),
    to: instantQuery("Before this time (exclusive).").optional(),
    limit: z.coerce.number().int().min(1).max(AUDIT_PAGE_LIMIT).default(50),
    cursor: z.string().min(1).max(512).optional().openapi({ description: "The previous page's nextCursor." }),
  })
  .strict();

export const route = createRoute({
  method: "get",
  path: "/api/integrations/audit-log",
  operationId: "listAuditLog",
  summary: "Who changed the organization's keys, members, webhook endpoint and settings",
  description:
    "Every change to the organization's API keys, members, webhook endpoints and settings, by the admin API, the dashboard or a key, newest first: who, when, from which address, and the fields before and after (never a secret). Kept at least a year.",
  tags: ["Audit"],
  request: { query: querySchema },
  responses: {
    200: {
      description: "A page of the audit log",
      content: {
        "application/json": {
          schema: z.object({ data: z.array(auditEventSchema), nextCursor: z.string().nullable() }),
        },
      },
    },
    ...errorResponses([], "partner"),
  },
});

/** What this operation answers, for its callers and tests. */
export type ListAuditLogResponse = ResponseBody<typeof route, 200>;

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const query = c.req.valid("query");
    const context = partnerContext(c);
    const page = await listAuditEvents(context, context.caller.organizationId, {
      limit: query.limit,
      ...(query.type ? { action: query.type } : {}),
      ...(query.from ? { from: new Date(query.from) } : {}),
      ...(query.to ? { to: new Date(query.to) } : {}),
      ...(query.cursor ? { cursor: query.cursor } : {}),
    });
    return c.json({ data: page.events.map(auditEventView), nextCursor: page.nextCursor }, 200);
  });
}

export function auditEventView(row: AuditEventRow): z.infer<typeof auditEventSchema> {
  return {
    id: row.id,
    action: row.action,
    actor: { type: row.actorType, id: row.actorId, ip: row.actorIp },
    target: { type: row.targetType, id: row.targetId },
    before: row.before,
    after: row.after,
    at: row.at.toISOString(),
  };
}
