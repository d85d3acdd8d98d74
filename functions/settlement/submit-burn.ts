import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/http/env";
import { errorResponses } from "../../lib/http/openapi-errors";
import { partnerContext } from "../../lib/http/partner-context";
import type { RequestBody, ResponseBody } from "../../lib/http/route-types";
import { BURNED_FUNDS_STATUSES, BURNED_STATUSES, HEALTHS, submitBurn } from "../../lib/settlement";

const burnReportSchema = z
  .object({
    orderId: z.string(),
    status: z.enum(BURNED_STATUSES),
    health: z.enum(HEALTHS),
    fundsStatus: z.enum(BURNED_FUNDS_STATUSES),
    burnTxHash: z.string(),
  })
  .openapi("BurnReport");

export const route = createRoute({
  method: "post",
  path: "/api/integrations/settlements/orders/{orderId}/burn",
  operationId: "submitSettlementBurn",
  summary: "Submit the burn transaction of an order",
  description:
    "After the user sent the burn plan's steps, submit the confirmed source-chain hash. The service " +
    "verifies the receipt and its DepositForBurn against the order. The same hash again answers the " +
    "order's current state; a hash another order used is `BURN_ALREADY_USED`; too few confirmations yet " +
    "is `BURN_PENDING_CONFIRMATIONS` (retry).",
  tags: ["Settlement"],
  request: {
    params: z.object({ orderId: z.string().openapi({ param: { name: "orderId", in: "path" } }) }),
    body: {
      required: true,
      content: {
        "application/json": {
          schema: z
            .object({ txHash: z.string().regex(/^0x[a-fA-F0-9]{64}$/, "must be 0x and 64 hex characters") })
            .strict()
            .openapi("BurnSubmission"),
        },
      },
    },
  },
  responses: {
    200: { description: "The burn report", content: { "application/json": { schema: burnReportSchema } } },
    ...errorResponses(
      [
        "ORDER_NOT_FOUND",
        "INVALID_BURN",
        "BURN_ALREADY_USED",
        "BURN_PENDING_CONFIRMATIONS",
        "PROVIDER_UNAVAILABLE",
        "SETTLEMENT_ACCOUNT_INACTIVE",
        "UNSUPPORTED_MEDIA_TYPE",
        "PAYLOAD_TOO_LARGE",
      ],
      "partner",
    ),
  },
});

/** What this operation takes and answers, for its callers and tests. */
export type SubmitSettlementBurnRequest = RequestBody<typeof route>;
export type SubmitSettlementBurnResponse = ResponseBody<typeof route, 200>;

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const burned = await submitBurn(
      partnerContext(c),
      c.req.valid("param").orderId,
      c.req.valid("json").txHash as `0x${string}`,
    );
    return c.json(burned, 200);
  });
}
