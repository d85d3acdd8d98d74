import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/http/env";
import { errorResponses } from "../../lib/http/openapi-errors";
import { partnerContext } from "../../lib/http/partner-context";
import type { RequestQuery, ResponseBody } from "../../lib/http/route-types";
import { sinceQuery } from "../../lib/http/since-query";
import { hasPrefix } from "../../lib/kernel/ids";
import { EVENTS_DEFAULT_LIMIT, EVENTS_PAGE_LIMIT, listEvents } from "../../lib/webhooks/list-events";
import { eventSchema, eventTypeSchema } from "./schemas";

export const route = createRoute({
  method: "get",
  path: "/api/integrations/webhooks/events",
  operationId: "listWebhookEvents",
  summary: "The organization's events, oldest first",
  description:
    "Every event the service sent or would send to the organization's endpoints, whether or not one is configured. Pages by `cursor`: pass the previous page's `nextCursor`; it is null on the last page.",
  tags: ["Webhooks"],
  request: {
    query: z.object({
      type: eventTypeSchema.optional(),
      since: sinceQuery("Events created at or after this instant."),
      limit: z.coerce.number().int().min(1).max(EVENTS_PAGE_LIMIT).default(EVENTS_DEFAULT_LIMIT),
      cursor: z
        .string()
        .refine((value) => hasPrefix(value, "evt"), "an event id, as nextCursor gives it")
        .optional(),
    }),
  },
  responses: {
    200: {
      description: "A page of events",
      content: {
        "application/json": {
          schema: z.object({ events: z.array(eventSchema), nextCursor: z.string().nullable() }),
        },
      },
    },
    ...errorResponses(["INVALID_REQUEST"], "partner"),
  },
});

/** What this operation takes and answers, for its callers and tests. */
export type ListWebhookEventsQuery = RequestQuery<typeof route>;
export type ListWebhookEventsResponse = ResponseBody<typeof route, 200>;

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const { since, ...query } = c.req.valid("query");
    const page = await listEvents(partnerContext(c), {
      ...query,
      ...(since ? { since: new Date(since) } : {}),
    });
    return c.json(page as { events: z.infer<typeof eventSchema>[]; nextCursor: string | null }, 200);
  });
}
