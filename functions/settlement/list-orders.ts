import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/http/env";
import { errorResponses } from "../../lib/http/openapi-errors";
import { partnerContext } from "../../lib/http/partner-context";
import type { RequestQuery, ResponseBody } from "../../lib/http/route-types";
import { listOrders } from "../../lib/settlement";
import { listOrdersQuery, orderReadSchema } from "./schemas";

export const route = createRoute({
  method: "get",
  path: "/api/integrations/settlements/orders",
  operationId: "listSettlementOrders",
  summary: "The organization's orders, oldest first",
  description:
    "Each order as `GET /api/integrations/settlements/orders/{orderId}` answers it, timeline included. Only the caller organization's orders are listed. Pages by `cursor`: pass the previous page's `nextCursor`; it is null on the last page.",
  tags: ["Settlement"],
  request: {
    query: listOrdersQuery,
  },
  responses: {
    200: {
      description: "A page of orders",
      content: {
        "application/json": {
          schema: z.object({ orders: z.array(orderReadSchema), nextCursor: z.string().nullable() }),
        },
      },
    },
    ...errorResponses(["INVALID_REQUEST"], "partner"),
  },
});

/** What this operation takes and answers, for its callers and tests. */
export type ListSettlementOrdersQuery = RequestQuery<typeof route>;
export type ListSettlementOrdersResponse = ResponseBody<typeof route, 200>;

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const { since, ...query } = c.req.valid("query");
    const page = await listOrders(partnerContext(c), {
      ...query,
      ...(since ? { since: new Date(since) } : {}),
    });
    return c.json(page as { orders: z.infer<typeof orderReadSchema>[]; nextCursor: string | null }, 200);
  });
}
