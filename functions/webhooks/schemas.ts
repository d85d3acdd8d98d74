import { z } from "@hono/zod-openapi";
import { sinceQuery } from "../../lib/http/since-query";
import { hasPrefix } from "../../lib/kernel/ids";
import { EVENT_TYPES, type EventType, SUBSCRIBABLE_EVENT_TYPES } from "../../lib/webhooks/event-types";
import { DELIVERY_STATUSES } from "../../lib/webhooks/list-deliveries";
import { EVENTS_DEFAULT_LIMIT, EVENTS_PAGE_LIMIT } from "../../lib/webhooks/list-events";
import { payoutSchema } from "../payouts/schemas";
import { orderReadSchema } from "../settlement/schemas";
import { swapSchema } from "../swaps/schemas";

export const eventTypeSchema = z.enum(EVENT_TYPES).openapi("EventType");

const eventId = z.string().openapi({
  description: "Unique per event; a receiver deduplicates on it (the `webhook-id` of every delivery).",
  example: "evt_01KAZ6XQ4R0000000000000000",
});

/** The event types whose `data` is one kind of resource, from the catalog. */
const typesStartingWith = (prefix: string) => {
  const types = EVENT_TYPES.filter((type) => type.startsWith(prefix));
  return z.enum(types as [EventType, ...EventType[]]);
};

/**
 * An event as a receiver gets it and the events listing answers it: a union on `type`, each with
 * the resource it carries as its read endpoint answered when the event happened.
 */
export const eventSchema = z
  .discriminatedUnion("type", [
    z
      .object({
        id: eventId,
        type: typesStartingWith("settlement.order."),
        createdAt: z.string().datetime(),
        data: orderReadSchema,
      })
      .openapi("SettlementOrderEvent", {
        description: "The order as GET /api/integrations/settlements/orders/{orderId} answered.",
      }),
    z
      .object({
        id: eventId,
        type: typesStartingWith("payout."),
        createdAt: z.string().datetime(),
        data: payoutSchema,
      })
      .openapi("PayoutEvent", {
        description: "The payout as GET /api/integrations/breb/payouts/{payoutId} answered.",
      }),
    z
      .object({
        id: eventId,
        type: z.literal("swap.confirmed"),
        createdAt: z.string().datetime(),
        data: swapSchema,
      })
      .openapi("SwapEvent", { description: "The swap as GET /api/integrations/swaps/{intentId} answered." }),
    z
      .object({
        id: eventId,
        type: z.literal("webhook.test"),
        createdAt: z.string().datetime(),
        data: z.object({ endpointId: z.string(), message: z.string() }),
      })
      .openapi("TestEvent", { description: "Sent on request to check an endpoint." }),
  ])
  .openapi("Event");

const subscribableEventTypeSchema = z.enum(SUBSCRIBABLE_EVENT_TYPES).openapi("SubscribableEventType");

export const endpointRequestSchema = z
  .object({
    url: z.string().openapi({
      description:
        "Where events are POSTed: https to a public host name (no IP address, no credentials, no fragment; redirects are not followed). Mock mode also takes http://localhost and http://127.0.0.1 for local receivers.",
      example: "https://hooks.example.com/copm",
    }),
    eventTypes: z
      .array(subscribableEventTypeSchema)
      .min(1)
      .optional()
      .openapi({ description: "The event types sent to the endpoint; omitted, every type." }),
  })
  .strict()
  .openapi("WebhookEndpointRequest");

export const endpointSchema = z
  .object({
    id: z.string().openapi({ example: "wep_01KAZ6XQ4R0000000000000000" }),
    url: z.string(),
    eventTypes: z.array(z.string()).nullable().openapi({ description: "Null: every type." }),
    status: z.enum(["enabled", "disabled"]).openapi({
      description: "A receiver answering 410 Gone disables its endpoint; PUT enables it again.",
    }),
    disabledReason: z.string().nullable(),
    secret: z
      .string()
      .openapi({ description: "Masked: only its last four characters.", example: "whsec_••••••••Qx8=" }),
    previousSecretValidUntil: z.string().datetime().nullable().openapi({
      description: "After a rotation, until when the previous secret also signs every delivery.",
    }),
    consecutiveFailures: z.number().int().openapi({ description: "Failed attempts since the last success." }),
    flaggedAt: z.string().datetime().nullable().openapi({
      description: "When a delivery last ran out of attempts; cleared by the next success.",
    }),
    createdAt: z.string().datetime(),
    updatedAt: z.string().datetime(),
  })
  .openapi("WebhookEndpoint");

export const signingSecretSchema = z.string().openapi({
  description:
    "The whole signing secret (Standard Webhooks, `whsec_` and base64). Shown only in this answer.",
  example: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
});

const attemptSchema = z
  .object({
    number: z.number().int(),
    attemptedAt: z.string().datetime(),
    statusCode: z.number().int().nullable(),
    durationMs: z.number().int(),
    responseExcerpt: z
      .string()
      .nullable()
      .openapi({ description: "The receiver's answer, at most 1,024 characters." }),
    error: z
      .string()
      .nullable()
      .openapi({ description: "Why there was no 2xx: a timeout, a refused connection, a redirect." }),
  })
  .openapi("WebhookAttempt");

export const deliverySchema = z
  .object({
    id: z.string().openapi({ example: "dlv_01KAZ6XQ4R0000000000000000" }),
    eventId: z.string(),
    eventType: z.string(),
    endpointId: z.string(),
    trigger: z.enum(["event", "replay", "test"]),
    status: z.enum(DELIVERY_STATUSES),
    attempts: z.number().int(),
    nextAttemptAt: z.string().datetime().nullable(),
    deliveredAt: z.string().datetime().nullable(),
    failedReason: z.string().nullable(),
    createdAt: z.string().datetime(),
    updatedAt: z.string().datetime(),
    attemptLog: z.array(attemptSchema),
  })
  .openapi("WebhookDelivery");

/** The query of both delivery listings (the partner's and the operator's). */
export const deliveryQuerySchema = z.object({
  status: z.enum(DELIVERY_STATUSES).optional(),
  eventType: eventTypeSchema.optional(),
  since: sinceQuery("Deliveries created at or after this instant."),
  limit: z.coerce.number().int().min(1).max(EVENTS_PAGE_LIMIT).default(EVENTS_DEFAULT_LIMIT),
  cursor: z
    .string()
    .refine((value) => hasPrefix(value, "dlv"), "a delivery id, as nextCursor gives it")
    .optional(),
});

export const deliveryPageSchema = z.object({
  deliveries: z.array(deliverySchema),
  nextCursor: z.string().nullable(),
});
