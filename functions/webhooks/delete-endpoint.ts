import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/http/env";
import { errorResponses } from "../../lib/http/openapi-errors";
import type { ResponseBody } from "../../lib/http/route-types";
import { deleteEndpoint } from "../../lib/webhooks/endpoints";

export const route = createRoute({
  method: "delete",
  path: "/api/integrations/webhooks/endpoint",
  operationId: "deleteWebhookEndpoint",
  summary: "Delete the integration's webhook endpoint",
  description:
    "Nothing more is sent; deliveries still pending fail with `failedReason` saying so, and every delivery stays listed. A later PUT creates a new endpoint with a new secret.",
  tags: ["Webhooks"],
  responses: {
    200: {
      description: "The endpoint was deleted",
      content: {
        "application/json": { schema: z.object({ deleted: z.literal(true), endpointId: z.string() }) },
      },
    },
    ...errorResponses(["WEBHOOK_ENDPOINT_NOT_FOUND"], "partner"),
  },
});

/** What this operation takes and answers, for its callers and tests. */
export type DeleteWebhookEndpointResponse = ResponseBody<typeof route, 200>;

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const deleted = await deleteEndpoint(c.get("services"), c.get("caller"));
    return c.json({ deleted: true as const, endpointId: deleted.id }, 200);
  });
}
