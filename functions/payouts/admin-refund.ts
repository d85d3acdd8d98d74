import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/http/env";
import { errorResponses } from "../../lib/http/openapi-errors";
import { operatorReason } from "../../lib/http/request-fields";
import type { RequestBody, ResponseBody } from "../../lib/http/route-types";
import { refundPayout } from "../../lib/payouts/refund-payout";
import { ADMIN_SECURITY } from "../tenancy/views";
import { payoutSchema } from "./schemas";

export const route = createRoute({
  method: "post",
  path: "/admin/payouts/{payoutId}/refund",
  operationId: "adminRefundPayout",
  summary: "Send a payout's deposit back to the user",
  description:
    "For a payout that will not be paid: `refund_required` (the provider refused it, or the deposit came after its deadline) or `failed` and not yet refunded. The provider sends the deposit back to the payout's `userAddress` on its chain; the payout goes `failed` (the refund follows) then `refunded` with `refundTxHash`, each with its webhook event (docs/payouts.md, Refunds).",
  tags: ["Admin"],
  security: ADMIN_SECURITY,
  request: {
    params: z.object({ payoutId: z.string().openapi({ param: { name: "payoutId", in: "path" } }) }),
    body: {
      required: true,
      content: {
        "application/json": {
          schema: z
            .object({
              reason: operatorReason(
                "Why, for the record: it is kept on the payout's failure reason and timeline.",
              ),
            })
            .strict(),
        },
      },
    },
  },
  responses: {
    200: {
      description: "The payout as it is now: failed while the refund goes out, or refunded",
      content: { "application/json": { schema: z.object({ payout: payoutSchema }) } },
    },
    ...errorResponses(
      [
        "PAYOUT_NOT_FOUND",
        "PAYOUT_NOT_REFUNDABLE",
        "PROVIDER_UNAVAILABLE",
        "UNSUPPORTED_MEDIA_TYPE",
        "PAYLOAD_TOO_LARGE",
      ],
      "admin",
    ),
  },
});

/** What this operation takes and answers, for its callers and tests. */
export type AdminRefundPayoutRequest = RequestBody<typeof route>;
export type AdminRefundPayoutResponse = ResponseBody<typeof route, 200>;

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const payout = await refundPayout(
      c.get("services"),
      c.req.valid("param").payoutId,
      c.req.valid("json").reason,
    );
    return c.json({ payout: payout }, 200);
  });
}
