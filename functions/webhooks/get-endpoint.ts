import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/http/env";
import { errorResponses } from "../../lib/http/openapi-errors";
import type { ResponseBody } from "../../lib/http/route-types";
import { getEndpoint } from "../../lib/webhooks/endpoints";
import { endpointSchema } from "./schemas";

export const route = createRoute({
  method: "get",
  path: "/api/integrations/webhooks/endpoint",
  operationId: "getWebhookEndpoint",
  summary: "The integration's webhook endpoint, its secret masked",
  description:
    "The endpoint events are sent to: URL, event types, state and failure count; the signing secret is masked (it is shown only when made).",
  tags: ["Webhooks"],
  responses: {
    200: {
      description: "The endpoint",
      content: { "application/json": { schema: z.object({ endpoint: endpointSchema }) } },
    },
    ...errorResponses(["WEBHOOK_ENDPOINT_NOT_FOUND"], "partner"),
  },
});

/** What this operation takes and answers, for its callers and tests. */
export type GetWebhookEndpointResponse = ResponseBody<typeof route, 200>;

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    return c.json({ endpoint: await getEndpoint(c.get("services"), c.get("caller")) }, 200);
  });
}
