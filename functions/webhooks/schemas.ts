import { z } from "@hono/zod-openapi";
import { EVENT_TYPES } from "../../lib/webhooks/event-types";

export const eventTypeSchema = z.enum(EVENT_TYPES).openapi("EventType");

export const eventSchema = z
  .object({
    id: z.string().openapi({
      description: "Unique per event; a receiver deduplicates on it (the `webhook-id` of every delivery).",
      example: "evt_01KAZ6XQ4R0000000000000000",
    }),
    type: eventTypeSchema,
    createdAt: z.string().datetime(),
    data: z.record(z.string(), z.unknown()).openapi({
      description:
        "The resource as its read endpoint answered when the event happened: for settlement.order.* the order of GET /api/integrations/settlements/orders/{orderId}.",
    }),
  })
  .openapi("Event");
