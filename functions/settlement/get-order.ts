import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/http/env";
import { errorResponses } from "../../lib/http/openapi-errors";
import { partnerContext } from "../../lib/http/partner-context";
import type { ResponseBody } from "../../lib/http/route-types";
import { readOrder } from "../../lib/settlement";
import { orderReadSchema } from "./schemas";

export const route = createRoute({
  method: "get",
  path: "/api/integrations/settlements/orders/{orderId}",
  operationId: "getSettlementOrder",
  summary: "An order, its quote's terms and its timeline",
  description: "Another organization's order answers 404 ORDER_NOT_FOUND, exactly like a missing one.",
  tags: ["Settlement"],
  request: { params: z.object({ orderId: z.string().openapi({ param: { name: "orderId", in: "path" } }) }) },
  responses: {
    200: { description: "The order", content: { "application/json": { schema: orderReadSchema } } },
    ...errorResponses(["ORDER_NOT_FOUND"], "partner"),
  },
});

/** What this operation takes and answers, for its callers and tests. */
export type GetSettlementOrderResponse = ResponseBody<typeof route, 200>;

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const order = await readOrder(partnerContext(c), c.req.valid("param").orderId);
    return c.json(order, 200);
  });
}
