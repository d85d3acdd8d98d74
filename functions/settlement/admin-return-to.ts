import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/http/env";
import { errorResponses } from "../../lib/http/openapi-errors";
import { operatorReason } from "../../lib/http/request-fields";
import type { RequestBody, ResponseBody } from "../../lib/http/route-types";
import { EVM_ADDRESS_RULE, parseEvmAddress } from "../../lib/kernel/chain/address";
import { redirectReturn } from "../../lib/settlement";
import { ADMIN_SECURITY } from "../tenancy/views";

export const route = createRoute({
  method: "post",
  path: "/admin/settlements/orders/{orderId}/return-to",
  operationId: "adminRedirectSettlementReturn",
  summary: "Name where a return's USDm goes on the destination chain",
  description:
    "For an order being returned whose ways back from the destination chain the aggregator refunded 3 times, and whose `sourceAddress` is a contract there (a plain account gets the USDm itself): the address on the destination chain the order's USDm goes to, after the operator confirmed it is the user's. The order then sends it (status RETURNED, funds RETURNED_ON_DESTINATION; docs/settlement.md, Returns). Naming again before it is sent replaces the address. ORDER_NOT_RETURNABLE when the order has no return decided, does not hold USDm on the destination chain, or already sent it.",
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
              to: z
                .string()
                .refine((value) => parseEvmAddress(value) !== undefined, EVM_ADDRESS_RULE)
                .openapi({ example: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" }),
              reason: operatorReason("How the operator knows the address is the user's, for the record."),
            })
            .strict(),
        },
      },
    },
  },
  responses: {
    202: {
      description: "Named; the order sends its USDm there",
      content: {
        "application/json": {
          schema: z.object({ orderId: z.string(), to: z.string(), redirectedAt: z.string().datetime() }),
        },
      },
    },
    ...errorResponses(
      [
        "SANCTIONED_ADDRESS",
        "SCREENING_UNAVAILABLE",
        "ORDER_NOT_FOUND",
        "ORDER_NOT_RETURNABLE",
        "UNSUPPORTED_MEDIA_TYPE",
        "PAYLOAD_TOO_LARGE",
      ],
      "admin",
    ),
  },
});

/** What this operation takes and answers, for its callers and tests. */
export type AdminRedirectSettlementReturnRequest = RequestBody<typeof route>;
export type AdminRedirectSettlementReturnResponse = ResponseBody<typeof route, 202>;

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const { to, reason } = c.req.valid("json");
    const address = parseEvmAddress(to);
    if (!address) throw new Error("the schema admitted an address parseEvmAddress refuses");
    return c.json(
      await redirectReturn(c.get("services"), c.req.valid("param").orderId, { to: address, reason }),
      202,
    );
  });
}
