import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/http/env";
import { errorResponses } from "../../lib/http/openapi-errors";
import type { RequestQuery, ResponseBody } from "../../lib/http/route-types";
import { listDeliveries } from "../../lib/webhooks/list-deliveries";
import { ADMIN_SECURITY } from "../tenancy/views";
import { deliveryPageSchema, deliveryQuerySchema } from "./schemas";

export const route = createRoute({
  method: "get",
  path: "/admin/webhooks/deliveries",
  operationId: "adminListWebhookDeliveries",
  summary: "Webhook deliveries of every organization",
  description:
    "The partner listing's filters across organizations: `status=failed` lists what ran out of attempts.",
  tags: ["Admin"],
  security: ADMIN_SECURITY,
  request: { query: deliveryQuerySchema },
  responses: {
    200: {
      description: "A page of deliveries",
      content: { "application/json": { schema: deliveryPageSchema } },
    },
    ...errorResponses(["INVALID_REQUEST"], "admin"),
  },
});

/** What this operation takes and answers, for its callers and tests. */
export type AdminListWebhookDeliveriesQuery = RequestQuery<typeof route>;
export type AdminListWebhookDeliveriesResponse = ResponseBody<typeof route, 200>;

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const { since, ...query } = c.req.valid("query");
    return c.json(
      await listDeliveries(c.get("services"), { ...query, ...(since ? { since: new Date(since) } : {}) }),
      200,
    );
  });
}
