import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/http/env";
import { errorResponses } from "../../lib/http/openapi-errors";
import type { ResponseBody } from "../../lib/http/route-types";
import { deleteEndpoint, integrationScope } from "../../lib/webhooks/endpoints";
import { ADMIN_SECURITY, integrationIdParam } from "../tenancy/views";

export const route = createRoute({
  method: "delete",
  path: "/admin/integrations/{integrationId}/webhook-endpoint",
  operationId: "adminDeleteWebhookEndpoint",
  summary: "Delete an integration's webhook endpoint",
  description: "As DELETE /api/integrations/webhooks/endpoint does for the integration's own key.",
  tags: ["Admin"],
  security: ADMIN_SECURITY,
  request: { params: integrationIdParam },
  responses: {
    200: {
      description: "The endpoint was deleted",
      content: {
        "application/json": { schema: z.object({ deleted: z.literal(true), endpointId: z.string() }) },
      },
    },
    ...errorResponses(["INTEGRATION_NOT_FOUND", "WEBHOOK_ENDPOINT_NOT_FOUND"], "admin"),
  },
});

/** What this operation takes and answers, for its callers and tests. */
export type AdminDeleteWebhookEndpointResponse = ResponseBody<typeof route, 200>;

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const services = c.get("services");
    const deleted = await deleteEndpoint(
      services,
      await integrationScope(services, c.req.valid("param").integrationId),
    );
    return c.json({ deleted: true as const, endpointId: deleted.id }, 200);
  });
}
