import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/http/env";
import { errorResponses } from "../../lib/http/openapi-errors";
import { operatorReason } from "../../lib/http/request-fields";
import type { RequestBody, ResponseBody } from "../../lib/http/route-types";
import { releaseHold } from "../../lib/settlement";
import { ADMIN_SECURITY } from "../tenancy/views";

export const route = createRoute({
  method: "post",
  path: "/admin/settlements/orders/{orderId}/release",
  operationId: "adminReleaseSettlementHold",
  summary: "Release an order held for compliance",
  description:
    "An order is held when one of its parties became listed (the sanctions oracle or the deny list) after it was screened and before the service paid its next leg: health STUCK, a HELD entry on its timeline, nothing paid (docs/compliance.md, Held orders). Releasing it, with the reason kept on the timeline (HOLD_RELEASED), lets it go on as it would have; screening never holds it again. The other way out is `POST /admin/settlements/orders/{orderId}/return`. An order not held is 409 ORDER_NOT_HELD.",
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
              reason: operatorReason("Why, for the compliance record (kept on the order's timeline)."),
            })
            .strict(),
        },
      },
    },
  },
  responses: {
    202: {
      description: "Released; the order goes on",
      content: {
        "application/json": {
          schema: z.object({
            orderId: z.string(),
            status: z.string().openapi({ description: "The order's status when it was released." }),
            releasedAt: z.string().datetime(),
          }),
        },
      },
    },
    ...errorResponses(
      ["ORDER_NOT_FOUND", "ORDER_NOT_HELD", "UNSUPPORTED_MEDIA_TYPE", "PAYLOAD_TOO_LARGE"],
      "admin",
    ),
  },
});

/** What this operation takes and answers, for its callers and tests. */
export type AdminReleaseSettlementHoldRequest = RequestBody<typeof route>;
export type AdminReleaseSettlementHoldResponse = ResponseBody<typeof route, 202>;

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) =>
    c.json(
      await releaseHold(c.get("services"), c.req.valid("param").orderId, c.req.valid("json").reason),
      202,
    ),
  );
}
