import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/http/env";
import { errorResponses } from "../../lib/http/openapi-errors";
import type { RequestQuery, ResponseBody } from "../../lib/http/route-types";
import { listDeliveries } from "../../lib/webhooks/list-deliveries";
import { deliveryPageSchema, deliveryQuerySchema } from "./schemas";

export const route = createRoute({
  method: "get",
  path: "/api/integrations/webhooks/deliveries",
  operationId: "listWebhookDeliveries",
  summary: "The organization's webhook deliveries with every attempt, oldest first",
  description:
    "One delivery per event sent to an endpoint (and per replay or test), with each attempt's time, status code, duration and the start of the receiver's answer. Pages by `cursor`: pass the previous page's `nextCursor`; it is null on the last page.",
  tags: ["Webhooks"],
  request: { query: deliveryQuerySchema },
  responses: {
    200: {
      description: "A page of deliveries",
      content: { "application/json": { schema: deliveryPageSchema } },
    },
    ...errorResponses(["INVALID_REQUEST"], "partner"),
  },
});

/** What this operation takes and answers, for its callers and tests. */
export type ListWebhookDeliveriesQuery = RequestQuery<typeof route>;
export type ListWebhookDeliveriesResponse = ResponseBody<typeof route, 200>;

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const { since, ...query } = c.req.valid("query");
    const page = await listDeliveries(c.get("services"), {
      ...query,
      organizationId: c.get("caller").organizationId,
      ...(since ? { since: new Date(since) } : {}),
    });
    return c.json(page, 200);
  });
}
