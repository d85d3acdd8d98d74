import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/http/env";
import { errorResponses } from "../../lib/http/openapi-errors";
import type { ResponseBody } from "../../lib/http/route-types";
import { PAYOUT_ATTENTION_REASONS, payoutsForOperator } from "../../lib/payouts/attention";
import { BREB_TOKENS } from "../../lib/payouts/breb-provider";
import { PAYOUT_STATUSES } from "../../lib/payouts/payout-view";
import { ADMIN_SECURITY } from "../tenancy/views";

const atomic = (description: string) =>
  z.string().openapi({ description: `${description} In the token's atomic units, as decimal text.` });

export const route = createRoute({
  method: "get",
  path: "/admin/payouts/attention",
  operationId: "adminListPayoutsForOperator",
  summary: "Payouts waiting on the operator, longest waiting first",
  description:
    "Across every organization, one row per payout and reason: `refund_required` (a deposit the provider will not pay: refund it with POST /admin/payouts/{payoutId}/refund), `refund_overdue` (failed, and no refund the payout chain shows within BREB_REFUND_DEADLINE_SECONDS), `refund_short` (the refund paid less than was owed), `fee_return_overdue` (refunded, and the service's fee not returned within the deadline). docs/payouts.md, Refunds.",
  tags: ["Admin"],
  security: ADMIN_SECURITY,
  responses: {
    200: {
      description: "The payouts and why each waits",
      content: {
        "application/json": {
          schema: z.object({
            payouts: z.array(
              z.object({
                payoutId: z.string(),
                organizationId: z.string(),
                reason: z.enum(PAYOUT_ATTENTION_REASONS),
                status: z.enum(PAYOUT_STATUSES),
                token: z.enum(BREB_TOKENS),
                chainId: z.number().int(),
                userAddress: z.string(),
                owed: atomic("What the provider owes back: the payout's providerAmount."),
                refunded: atomic(
                  "What the chain showed the refund pay; null before it is proven.",
                ).nullable(),
                serviceFee: atomic("The service's fee, returned to the user once the refund is proven."),
                refundTxHash: z.string().nullable(),
                feeReturnTxHash: z.string().nullable(),
                failureReason: z.string().nullable(),
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
export type AdminListPayoutsForOperatorResponse = ResponseBody<typeof route, 200>;

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const rows = await payoutsForOperator(c.get("services"));
    return c.json(
      {
        payouts: rows.map(({ reason, payout }) => ({
          payoutId: payout.id,
          organizationId: payout.organizationId,
          reason,
          status: payout.status,
          token: payout.token as (typeof BREB_TOKENS)[number],
          chainId: payout.chainId,
          userAddress: payout.userAddress,
          owed: payout.providerAmount.toString(),
          refunded: payout.refundAmount?.toString() ?? null,
          serviceFee: payout.serviceFee.toString(),
          refundTxHash: payout.refundTxHash,
          feeReturnTxHash: payout.feeReturnTxHash,
          failureReason: payout.failureReason,
          updatedAt: payout.updatedAt.toISOString(),
        })),
      },
      200,
    );
  });
}
