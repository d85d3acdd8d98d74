import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/http/env";
import { errorResponses } from "../../lib/http/openapi-errors";
import { operatorReason, txHashField } from "../../lib/http/request-fields";
import type { RequestBody, ResponseBody } from "../../lib/http/route-types";
import { bookOperatorRouteRefund } from "../../lib/settlement";
import { ADMIN_SECURITY } from "../tenancy/views";

export const route = createRoute({
  method: "post",
  path: "/admin/settlements/orders/{orderId}/route-refund",
  operationId: "adminBookRouteRefund",
  summary: "Book a refund of a failed route that the aggregator never named",
  description:
    "For an order ROUTING on a route the aggregator reported FAILED or INVALID (a ROUTE_FAILED entry) whose refund LI.FI's status never names: the transaction on the intermediate chain that gave the route's USDC back to the settlement account, found by the operator. The service books what that transaction's USDC Transfer to the settlement account shows (ROUTE_REFUNDED, status MINTED), then routes again while the floor holds, else returns (docs/outcomes.md). Refused with INVALID_REQUEST naming `body.txHash` when the transaction is not mined, shows no single USDC Transfer to the settlement account, or is already named by any order or by the service's own payments; ROUTE_NOT_FAILED when the order has no failed route.",
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
              txHash: txHashField(`0x${"ab".repeat(32)}`),
              reason: operatorReason(
                "How the operator found the refund (the aggregator's ticket, say), for the record.",
              ),
            })
            .strict(),
        },
      },
    },
  },
  responses: {
    200: {
      description: "Booked; the order is MINTED again",
      content: {
        "application/json": {
          schema: z.object({
            orderId: z.string(),
            status: z.string(),
            amount: z.string(),
            txHash: z.string(),
          }),
        },
      },
    },
    ...errorResponses(
      ["ORDER_NOT_FOUND", "ROUTE_NOT_FAILED", "UNSUPPORTED_MEDIA_TYPE", "PAYLOAD_TOO_LARGE"],
      "admin",
    ),
  },
});

/** What this operation takes and answers, for its callers and tests. */
export type AdminBookRouteRefundRequest = RequestBody<typeof route>;
export type AdminBookRouteRefundResponse = ResponseBody<typeof route, 200>;

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const { txHash, reason } = c.req.valid("json");
    const booked = await bookOperatorRouteRefund(c.get("services"), c.req.valid("param").orderId, {
      txHash,
      reason,
    });
    return c.json(booked, 200);
  });
}
