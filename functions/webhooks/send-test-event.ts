import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/http/env";
import { errorResponses } from "../../lib/http/openapi-errors";
import type { ResponseBody } from "../../lib/http/route-types";
import { sendTestEvent } from "../../lib/webhooks/endpoints";
import { deliverySchema, eventSchema } from "./schemas";

export const route = createRoute({
  method: "post",
  path: "/api/integrations/webhooks/endpoint/test",
  operationId: "sendWebhookTestEvent",
  summary: "Send a webhook.test event to the endpoint",
  description:
    "Records a `webhook.test` event and queues its delivery, signed like every other, whatever types the endpoint subscribes to. Follow it in GET /api/integrations/webhooks/deliveries.",
  tags: ["Webhooks"],
  responses: {
    202: {
      description: "The test event and its queued delivery",
      content: { "application/json": { schema: z.object({ event: eventSchema, delivery: deliverySchema }) } },
    },
    ...errorResponses(["WEBHOOK_ENDPOINT_NOT_FOUND", "WEBHOOK_ENDPOINT_DISABLED"], "partner"),
  },
});

/** What this operation takes and answers, for its callers and tests. */
export type SendWebhookTestEventResponse = ResponseBody<typeof route, 202>;

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const sent = await sendTestEvent(c.get("services"), c.get("caller"));
    return c.json(
      sent as { event: z.infer<typeof eventSchema>; delivery: z.infer<typeof deliverySchema> },
      202,
    );
  });
}
