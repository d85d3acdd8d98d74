import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { hasChange } from "../../lib/http/api-versions";
import type { AppEnv } from "../../lib/http/env";
import { errorResponses } from "../../lib/http/openapi-errors";
import { partnerContext } from "../../lib/http/partner-context";
import type { RequestQuery, ResponseBody } from "../../lib/http/route-types";
import { listOrders } from "../../lib/settlement";
import { listOrdersQuery, orderSummarySchema } from "./schemas";

export const route = createRoute({
  method: "get",
  path: "/api/integrations/settlements/orders",
  operationId: "listSettlementOrders",
  summary: "The organization's orders, oldest first",
  description:
    "Each order's summary: where it stands, what it sends and promises, between which addresses and chains. `GET /api/integrations/settlements/orders/{orderId}` answers the rest (the quote's fees and legs, the burn plan, the receipt, the timeline). Only the caller organization's orders are listed. Pages by `cursor`: pass the previous page's `nextCursor`; it is null on the last page. At `API-Version: 2026-11-25` each item is the whole order as the read answers it (docs/versioning.md).",
  tags: ["Settlement"],
  request: {
    query: listOrdersQuery,
  },
  responses: {
    200: {
      description: "A page of orders",
      content: {
        "application/json": {
          schema: z.object({ orders: z.array(orderSummarySchema), nextCursor: z.string().nullable() }),
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
    const filter = { ...query, ...(since ? { since: new Date(since) } : {}) };
    if (!hasChange(c.get("apiVersion"), "orderListSummaries")) {
      // A page at 2026-11-25 is the shape that version documented (whole orders), which this document no longer describes.
      const whole = await listOrders(partnerContext(c), filter, "full");
      return c.json(whole as unknown as ListSettlementOrdersResponse, 200);
    }
    // Each summary comes as the JSON text Postgres built: joined, not decoded and written again.
    const page = await listOrders(partnerContext(c), filter, "summary");
    return c.body(
      `{"orders":[${page.orders.join(",")}],"nextCursor":${JSON.stringify(page.nextCursor)}}`,
      200,
      { "content-type": "application/json" },
    ) as never;
  });
}
