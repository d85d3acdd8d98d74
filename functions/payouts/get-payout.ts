import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/http/env";
import { openapiBreb } from "../../lib/http/miniapp";
import { errorResponses } from "../../lib/http/openapi-errors";
import { partnerContext } from "../../lib/http/partner-context";
import type { ResponseBody } from "../../lib/http/route-types";
import { readPayout } from "../../lib/payouts/read-payouts";
import { walletSessionHeader } from "../identity/schemas";
import { payoutSchema } from "./schemas";

export const route = createRoute({
  method: "get",
  path: "/api/integrations/breb/payouts/{payoutId}",
  operationId: "getBrebPayout",
  summary: "A payout, with its timeline",
  description:
    "The source of truth for a payout. Another organization's payout answers as a missing one." +
    " On the miniapp's key-less prefix (mock mode), where anyone may call, this needs the user's wallet session (`Wallet-Session`) too.",
  tags: ["BRE-B payouts"],
  request: {
    params: z.object({ payoutId: z.string().min(1).max(100) }),
    headers: z.object(walletSessionHeader),
  },
  responses: {
    200: { description: "The payout", content: { "application/json": { schema: payoutSchema } } },
    // WALLET_SESSION_REQUIRED is the miniapp's key-less prefix's only (left out of the document): with a key, never.
    ...errorResponses(["PAYOUT_NOT_FOUND"], "partner"),
  },
});

/** What this operation takes and answers, for its callers and tests. */
export type GetBrebPayoutResponse = ResponseBody<typeof route, 200>;

export function register(app: OpenAPIHono<AppEnv>) {
  openapiBreb(app, route, async (c) =>
    c.json(
      await readPayout(
        partnerContext(c),
        c.req.valid("param").payoutId,
        c.req.valid("header")["wallet-session"],
      ),
      200,
    ),
  );
}
