import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/http/env";
import { BODY_ERRORS, errorResponses } from "../../lib/http/openapi-errors";
import { partnerContext } from "../../lib/http/partner-context";
import type { RequestBody, ResponseBody } from "../../lib/http/route-types";
import { createOrder } from "../../lib/settlement";
import { orderSchema, PRICING_ERRORS } from "./schemas";

export const route = createRoute({
  method: "post",
  path: "/api/integrations/settlements/orders",
  operationId: "createSettlementOrder",
  summary: "Order a quote",
  description:
    "Moves no funds. Retrying with the same `Idempotency-Key` and the same quote returns the same order, " +
    "status and body; the same key with another quote is `IDEMPOTENCY_CONFLICT`. Keys are remembered as " +
    "long as the order exists (at least 24 hours), per organization. The route is re-priced: more than " +
    "4% worse than quoted is `SLIPPAGE_LIMIT_EXCEEDED` and no order. `execution.mode` is " +
    "`pending_burn_plan` until the organization's burn plan is enabled; then `execution.burnPlan` " +
    "holds the signed steps the user signs on the source chain.",
  tags: ["Settlement"],
  request: {
    headers: z.object({
      "idempotency-key": z.string().min(1).max(200).openapi({
        description: "1 to 200 characters, unique per logical order.",
        example: "order-2026-11-22-0001",
      }),
    }),
    body: {
      required: true,
      content: {
        "application/json": {
          schema: z
            .object({
              quoteId: z.string().min(1).max(64),
              reference: z
                .string()
                .min(1)
                .max(128)
                .optional()
                .openapi({ description: "Your own reference." }),
            })
            .strict()
            .openapi("SettlementOrderRequest"),
        },
      },
    },
  },
  responses: {
    201: {
      description: "The order (the same answer again on a retry)",
      content: { "application/json": { schema: orderSchema } },
    },
    ...errorResponses(
      [
        "SANCTIONED_ADDRESS",
        "SCREENING_UNAVAILABLE",
        "INVALID_IDEMPOTENCY_KEY",
        "QUOTE_NOT_FOUND",
        "QUOTE_EXPIRED",
        "QUOTE_ALREADY_USED",
        "IDEMPOTENCY_CONFLICT",
        "SLIPPAGE_LIMIT_EXCEEDED",
        ...PRICING_ERRORS,
        ...BODY_ERRORS,
      ],
      "partner",
    ),
  },
});

/** What this operation takes and answers, for its callers and tests. */
export type CreateSettlementOrderRequest = RequestBody<typeof route>;
export type CreateSettlementOrderResponse = ResponseBody<typeof route, 201>;

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const body = c.req.valid("json");
    const creation = await createOrder(partnerContext(c), {
      quoteId: body.quoteId,
      idempotencyKey: c.req.valid("header")["idempotency-key"],
      ...(body.reference === undefined ? {} : { reference: body.reference }),
    });
    // The stored text, parsed: its keys keep their order, so every answer is the same bytes.
    return c.json(JSON.parse(creation), 201);
  });
}
