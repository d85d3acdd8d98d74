import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/http/env";
import { BODY_ERRORS, errorResponses } from "../../lib/http/openapi-errors";
import type { RequestBody, ResponseBody } from "../../lib/http/route-types";
import { SECRET_HEADERS } from "../../lib/http/security-headers";
import { putEndpoint } from "../../lib/webhooks/endpoints";
import { endpointRequestSchema, endpointSchema, signingSecretSchema } from "./schemas";

export const route = createRoute({
  method: "put",
  path: "/api/integrations/webhooks/endpoint",
  operationId: "putWebhookEndpoint",
  summary: "Set the integration's webhook endpoint",
  description:
    "Creates the endpoint with a new signing secret, shown in the 201 answer only, or replaces its URL and event types (200; the secret is kept: rotate it with POST …/endpoint/rotate-secret). Either way the endpoint is enabled again and its failure count starts afresh. Events recorded from now on are sent to it.",
  tags: ["Webhooks"],
  request: { body: { required: true, content: { "application/json": { schema: endpointRequestSchema } } } },
  responses: {
    200: {
      description: "The endpoint was updated",
      content: { "application/json": { schema: z.object({ endpoint: endpointSchema }) } },
    },
    201: {
      description: "The endpoint was created: store the secret now",
      content: {
        "application/json": { schema: z.object({ endpoint: endpointSchema, secret: signingSecretSchema }) },
      },
    },
    ...errorResponses(["INVALID_WEBHOOK_URL", "WEBHOOKS_UNCONFIGURED", ...BODY_ERRORS], "partner"),
  },
});

/** What this operation takes and answers, for its callers and tests. */
export type PutWebhookEndpointRequest = RequestBody<typeof route>;
export type PutWebhookEndpointResponse = ResponseBody<typeof route, 200>;

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const caller = c.get("caller");
    const result = await putEndpoint(c.get("services"), caller, c.req.valid("json"));
    return result.secret === undefined
      ? c.json({ endpoint: result.endpoint }, 200)
      : c.json({ endpoint: result.endpoint, secret: result.secret }, 201, SECRET_HEADERS);
  });
}
