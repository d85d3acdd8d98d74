import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/http/env";
import { openapiBreb } from "../../lib/http/miniapp";
import { BODY_ERRORS, errorResponses } from "../../lib/http/openapi-errors";
import { partnerContext } from "../../lib/http/partner-context";
import type { RequestBody, ResponseBody } from "../../lib/http/route-types";
import { confirmPayout } from "../../lib/payouts/confirm-payout";
import { walletSessionHeader } from "../identity/schemas";
import { payoutSchema } from "./schemas";

export const route = createRoute({
  method: "post",
  path: "/api/integrations/breb/payouts/{payoutId}/confirm",
  operationId: "confirmBrebPayout",
  summary: "Confirm the user's deposit by its transaction hash",
  description:
    "Reads the receipt on the payout chain and checks it is this payout's deposit (INVALID_DEPOSIT names the check that failed; DEPOSIT_PENDING_CONFIRMATIONS is retryable). A hash confirms one payout (TX_ALREADY_USED); the same hash again answers the payout as it is now. A deposit mined after depositDeadline is PAYOUT_EXPIRED and the payout becomes refund_required. Then the service hands the payout to the provider. On the miniapp's key-less prefix (mock mode), where anyone may call, this needs the user's wallet session (`Wallet-Session`) too.",
  tags: ["BRE-B payouts"],
  request: {
    params: z.object({ payoutId: z.string().min(1).max(100) }),
    headers: z.object(walletSessionHeader),
    body: {
      required: true,
      content: {
        "application/json": {
          schema: z
            .object({ txHash: z.string().regex(/^0x[a-fA-F0-9]{64}$/, "must be 0x and 64 hex digits") })
            .strict(),
        },
      },
    },
  },
  responses: {
    200: { description: "The payout", content: { "application/json": { schema: payoutSchema } } },
    ...errorResponses(
      [
        "PAYOUT_NOT_FOUND",
        "WALLET_SESSION_REQUIRED",
        "INVALID_DEPOSIT",
        "DEPOSIT_PENDING_CONFIRMATIONS",
        "TX_ALREADY_USED",
        "PAYOUT_EXPIRED",
        "PAYOUTS_UNCONFIGURED",
        ...BODY_ERRORS,
      ],
      "partner",
    ),
  },
});

/** What this operation takes and answers, for its callers and tests. */
export type ConfirmBrebPayoutRequest = RequestBody<typeof route>;
export type ConfirmBrebPayoutResponse = ResponseBody<typeof route, 200>;

export function register(app: OpenAPIHono<AppEnv>) {
  openapiBreb(app, route, async (c) => {
    const payout = await confirmPayout(
      partnerContext(c),
      c.req.valid("param").payoutId,
      c.req.valid("json").txHash as `0x${string}`,
      c.req.valid("header")["wallet-session"],
    );
    return c.json(payout, 200);
  });
}
