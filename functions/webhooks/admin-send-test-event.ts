import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/http/env";
import { errorResponses } from "../../lib/http/openapi-errors";
import type { ResponseBody } from "../../lib/http/route-types";
import { integrationScope, sendTestEvent } from "../../lib/webhooks/endpoints";
import { ADMIN_SECURITY, integrationIdParam } from "../tenancy/views";
import { deliverySchema, eventSchema } from "./schemas";

export const route = createRoute({
  method: "post",
  path: "/admin/integrations/{integrationId}/webhook-endpoint/test",
  operationId: "adminSendWebhookTestEvent",
  summary: "Send a webhook.test event to an integration's endpoint",
  description:
    "Records a `webhook.test` event for the integration and queues its delivery, signed like every other, as the partner's own test does. A disabled endpoint is refused.",
  tags: ["Admin"],
  security: ADMIN_SECURITY,
  request: { params: integrationIdParam },
  responses: {
    202: {
      description: "The test event and its queued delivery",
      content: { "application/json": { schema: z.object({ event: eventSchema, delivery: deliverySchema }) } },
    },
    ...errorResponses(
      ["INTEGRATION_NOT_FOUND", "WEBHOOK_ENDPOINT_NOT_FOUND", "WEBHOOK_ENDPOINT_DISABLED"],
      "admin",
    ),
  },
});

/** What this operation takes and answers, for its callers and tests. */
export type AdminSendWebhookTestEventResponse = ResponseBody<typeof route, 202>;

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const services = c.get("services");
    const sent = await sendTestEvent(
      services,
      await integrationScope(services, c.req.valid("param").integrationId),
    );
    return c.json(
      sent as { event: z.infer<typeof eventSchema>; delivery: z.infer<typeof deliverySchema> },
      202,
    );
  });
}
