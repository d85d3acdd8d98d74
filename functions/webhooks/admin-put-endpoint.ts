import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/http/env";
import { BODY_ERRORS, errorResponses } from "../../lib/http/openapi-errors";
import type { RequestBody, ResponseBody } from "../../lib/http/route-types";
import { SECRET_HEADERS } from "../../lib/http/security-headers";
import { integrationScope, putEndpoint } from "../../lib/webhooks/endpoints";
import { ADMIN_SECURITY, integrationIdParam } from "../tenancy/views";
import { endpointRequestSchema, endpointSchema, signingSecretSchema } from "./schemas";

export const route = createRoute({
  method: "put",
  path: "/admin/integrations/{integrationId}/webhook-endpoint",
  operationId: "adminPutWebhookEndpoint",
  summary: "Set an integration's webhook endpoint",
  description: "As PUT /api/integrations/webhooks/endpoint does for the integration's own key.",
  tags: ["Admin"],
  security: ADMIN_SECURITY,
  request: {
    params: integrationIdParam,
    body: { required: true, content: { "application/json": { schema: endpointRequestSchema } } },
  },
  responses: {
    200: {
      description: "The endpoint was updated",
      content: { "application/json": { schema: z.object({ endpoint: endpointSchema }) } },
    },
    201: {
      description: "The endpoint was created: hand the secret to the partner",
      content: {
        "application/json": { schema: z.object({ endpoint: endpointSchema, secret: signingSecretSchema }) },
      },
    },
    ...errorResponses(
      ["INTEGRATION_NOT_FOUND", "INVALID_WEBHOOK_URL", "WEBHOOKS_UNCONFIGURED", ...BODY_ERRORS],
      "admin",
    ),
  },
});

/** What this operation takes and answers, for its callers and tests. */
export type AdminPutWebhookEndpointRequest = RequestBody<typeof route>;
export type AdminPutWebhookEndpointResponse = ResponseBody<typeof route, 200>;

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const services = c.get("services");
    const scope = await integrationScope(services, c.req.valid("param").integrationId);
    const result = await putEndpoint(services, scope, c.req.valid("json"));
    return result.secret === undefined
      ? c.json({ endpoint: result.endpoint }, 200)
      : c.json({ endpoint: result.endpoint, secret: result.secret }, 201, SECRET_HEADERS);
  });
}
