import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/http/env";
import { errorResponses } from "../../lib/http/openapi-errors";
import type { ResponseBody } from "../../lib/http/route-types";
import { retryOrderLeg } from "../../lib/settlement";
import { ADMIN_SECURITY } from "../tenancy/views";

export const route = createRoute({
  method: "post",
  path: "/admin/settlements/orders/{orderId}/retry",
  operationId: "adminRetrySettlementLeg",
  summary: "Retry an order's current leg now",
  description:
    "A reverted transaction of the order is set aside so the leg signs a new one; others are kept.",
  tags: ["Admin"],
  security: ADMIN_SECURITY,
  request: { params: z.object({ orderId: z.string().openapi({ param: { name: "orderId", in: "path" } }) }) },
  responses: {
    202: {
      description: "Scheduled",
      content: {
        "application/json": { schema: z.object({ orderId: z.string(), setAside: z.number().int() }) },
      },
    },
    ...errorResponses(["ORDER_NOT_FOUND"], "admin"),
  },
});

/** What this operation takes and answers, for its callers and tests. */
export type AdminRetrySettlementLegResponse = ResponseBody<typeof route, 202>;

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) =>
    c.json(await retryOrderLeg(c.get("services"), c.req.valid("param").orderId), 202),
  );
}
