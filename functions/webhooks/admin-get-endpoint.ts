import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/http/env";
import { errorResponses } from "../../lib/http/openapi-errors";
import type { ResponseBody } from "../../lib/http/route-types";
import { getEndpoint, integrationScope } from "../../lib/webhooks/endpoints";
import { ADMIN_SECURITY, integrationIdParam } from "../tenancy/views";
import { endpointSchema } from "./schemas";

export const route = createRoute({
  method: "get",
  path: "/admin/integrations/{integrationId}/webhook-endpoint",
  operationId: "adminGetWebhookEndpoint",
  summary: "An integration's webhook endpoint, its secret masked",
  description:
    "The integration's webhook endpoint as its partner reads it: URL, event types, state and failure count; the signing secret masked.",
  tags: ["Admin"],
  security: ADMIN_SECURITY,
  request: { params: integrationIdParam },
  responses: {
    200: {
      description: "The endpoint",
      content: { "application/json": { schema: z.object({ endpoint: endpointSchema }) } },
    },
    ...errorResponses(["INTEGRATION_NOT_FOUND", "WEBHOOK_ENDPOINT_NOT_FOUND"], "admin"),
  },
});

/** What this operation takes and answers, for its callers and tests. */
export type AdminGetWebhookEndpointResponse = ResponseBody<typeof route, 200>;

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const services = c.get("services");
    const scope = await integrationScope(services, c.req.valid("param").integrationId);
    return c.json({ endpoint: await getEndpoint(services, scope) }, 200);
  });
}
