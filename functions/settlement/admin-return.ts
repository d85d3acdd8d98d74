import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/http/env";
import { errorResponses } from "../../lib/http/openapi-errors";
import { operatorReason } from "../../lib/http/request-fields";
import type { RequestBody, ResponseBody } from "../../lib/http/route-types";
import { returnOrder } from "../../lib/settlement";
import { ADMIN_SECURITY } from "../tenancy/views";

export const route = createRoute({
  method: "post",
  path: "/admin/settlements/orders/{orderId}/return",
  operationId: "adminReturnSettlementOrder",
  summary: "Return an order's USDC to the user",
  description:
    "The operator's decision that the order will not deliver: its USDC goes back to `sourceAddress` on the source chain over CCTP (status RETURNING, then RETURNED; docs/settlement.md, Returns). Any burned order that has not exchanged its USDm for COPm can be returned (BURNED, ATTESTED, MINTED, ROUTING, ROUTED with USDm on the destination chain): it returns from where its money is, from the intermediate chain, or from the destination chain by way of the aggregator back to the intermediate chain (RETURNING_TO_INTERMEDIATE). A route or an exchange already recorded goes on: a route's order then returns from the destination chain, an exchange's delivers. Asking again answers the first decision.",
  tags: ["Admin"],
  security: ADMIN_SECURITY,
  request: {
    params: z.object({ orderId: z.string().openapi({ param: { name: "orderId", in: "path" } }) }),
    body: {
      required: true,
      content: {
        "application/json": {
          schema: z
            .object({
              reason: operatorReason(
                "Why, for the operators' record (kept on the order, not shown to the partner).",
              ),
            })
            .strict(),
        },
      },
    },
  },
  responses: {
    202: {
      description: "Decided; the return is under way",
      content: {
        "application/json": {
          schema: z.object({
            orderId: z.string(),
            status: z.string().openapi({ description: "The order's status when the return was decided." }),
            requestedAt: z.string().datetime(),
          }),
        },
      },
    },
    ...errorResponses(
      ["ORDER_NOT_FOUND", "ORDER_NOT_RETURNABLE", "UNSUPPORTED_MEDIA_TYPE", "PAYLOAD_TOO_LARGE"],
      "admin",
    ),
  },
});

/** What this operation takes and answers, for its callers and tests. */
export type AdminReturnSettlementOrderRequest = RequestBody<typeof route>;
export type AdminReturnSettlementOrderResponse = ResponseBody<typeof route, 202>;

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) =>
    c.json(
      await returnOrder(c.get("services"), c.req.valid("param").orderId, c.req.valid("json").reason),
      202,
    ),
  );
}
