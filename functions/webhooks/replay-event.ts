import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/http/env";
import { errorResponses } from "../../lib/http/openapi-errors";
import { partnerContext } from "../../lib/http/partner-context";
import type { ResponseBody } from "../../lib/http/route-types";
import { replayEvent } from "../../lib/webhooks/replay";
import { deliverySchema } from "./schemas";

export const route = createRoute({
  method: "post",
  path: "/api/integrations/webhooks/events/{eventId}/replay",
  operationId: "replayWebhookEvent",
  summary: "Send an event again",
  description:
    "Queues a new delivery of the event to its integration's endpoint, after the deliveries already pending there. It carries the same `webhook-id`, so a receiver that handled the event before recognises it.",
  tags: ["Webhooks"],
  request: {
    params: z.object({ eventId: z.string().openapi({ param: { name: "eventId", in: "path" } }) }),
  },
  responses: {
    202: {
      description: "The queued delivery",
      content: { "application/json": { schema: z.object({ delivery: deliverySchema }) } },
    },
    ...errorResponses(
      ["EVENT_NOT_FOUND", "WEBHOOK_ENDPOINT_NOT_FOUND", "WEBHOOK_ENDPOINT_DISABLED"],
      "partner",
    ),
  },
});

/** What this operation takes and answers, for its callers and tests. */
export type ReplayWebhookEventResponse = ResponseBody<typeof route, 202>;

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const delivery = await replayEvent(partnerContext(c), c.req.valid("param").eventId);
    return c.json({ delivery }, 202);
  });
}
