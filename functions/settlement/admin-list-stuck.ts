import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/http/env";
import { errorResponses } from "../../lib/http/openapi-errors";
import type { ResponseBody } from "../../lib/http/route-types";
import { stuckOrders } from "../../lib/settlement";
import { ADMIN_SECURITY } from "../tenancy/views";

export const route = createRoute({
  method: "get",
  path: "/admin/settlements/stuck",
  operationId: "adminListStuckSettlements",
  summary: "Settlement orders whose health is STUCK, longest waiting first",
  description:
    "Orders whose current leg outlived its deadline or whose provider reported a terminal failure (docs/architecture.md), longest waiting first, across every organization: the operator's queue for retries and returns.",
  tags: ["Admin"],
  security: ADMIN_SECURITY,
  responses: {
    200: {
      description: "The stuck orders",
      content: {
        "application/json": {
          schema: z.object({
            orders: z.array(
              z.object({
                orderId: z.string(),
                organizationId: z.string(),
                status: z.string(),
                fundsStatus: z.string(),
                burnTxHash: z.string().nullable(),
                updatedAt: z.string().datetime(),
              }),
            ),
          }),
        },
      },
    },
    ...errorResponses([], "admin"),
  },
});

/** What this operation takes and answers, for its callers and tests. */
export type AdminListStuckSettlementsResponse = ResponseBody<typeof route, 200>;

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const orders = await stuckOrders(c.get("services"));
    return c.json(
      {
        orders: orders.map((o) => ({
          orderId: o.id,
          organizationId: o.organizationId,
          status: o.status,
          fundsStatus: o.fundsStatus,
          burnTxHash: o.burnTxHash,
          updatedAt: o.updatedAt.toISOString(),
        })),
      },
      200,
    );
  });
}
