import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/http/env";
import { errorResponses } from "../../lib/http/openapi-errors";
import type { ResponseBody } from "../../lib/http/route-types";
import { SECRET_HEADERS } from "../../lib/http/security-headers";
import { integrationScope, rotateSecret } from "../../lib/webhooks/endpoints";
import { ADMIN_SECURITY, integrationIdParam } from "../tenancy/views";
import { endpointSchema, signingSecretSchema } from "./schemas";

export const route = createRoute({
  method: "post",
  path: "/admin/integrations/{integrationId}/webhook-endpoint/rotate-secret",
  operationId: "adminRotateWebhookSecret",
  summary: "Rotate an integration's webhook signing secret",
  description:
    "As POST /api/integrations/webhooks/endpoint/rotate-secret: the previous secret signs beside the new one for 24 hours.",
  tags: ["Admin"],
  security: ADMIN_SECURITY,
  request: { params: integrationIdParam },
  responses: {
    200: {
      description: "The new secret: hand it to the partner",
      content: {
        "application/json": { schema: z.object({ endpoint: endpointSchema, secret: signingSecretSchema }) },
      },
    },
    ...errorResponses(
      ["INTEGRATION_NOT_FOUND", "WEBHOOK_ENDPOINT_NOT_FOUND", "WEBHOOKS_UNCONFIGURED"],
      "admin",
    ),
  },
});

/** What this operation takes and answers, for its callers and tests. */
export type AdminRotateWebhookSecretResponse = ResponseBody<typeof route, 200>;

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const services = c.get("services");
    const scope = await integrationScope(services, c.req.valid("param").integrationId);
    return c.json(await rotateSecret(services, scope), 200, SECRET_HEADERS);
  });
}
