import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/http/env";
import { openapiBreb } from "../../lib/http/miniapp";
import { errorResponses } from "../../lib/http/openapi-errors";
import { partnerContext } from "../../lib/http/partner-context";
import type { RequestQuery, ResponseBody } from "../../lib/http/route-types";
import { listPayouts } from "../../lib/payouts/read-payouts";
import { walletSessionHeader } from "../identity/schemas";
import { listPayoutsQuery, payoutSchema } from "./schemas";

export const route = createRoute({
  method: "get",
  path: "/api/integrations/breb/payouts",
  operationId: "listBrebPayouts",
  summary: "The organization's payouts, oldest first",
  description:
    "Pages by `cursor`: pass the previous page's `nextCursor`; it is null on the last page." +
    " On the miniapp's key-less prefix (mock mode), where anyone may call, it lists one user's payouts only: `userAddress` with that user's wallet session (`Wallet-Session`).",
  tags: ["BRE-B payouts"],
  request: {
    query: listPayoutsQuery,
    headers: z.object(walletSessionHeader),
  },
  responses: {
    200: {
      description: "A page of payouts",
      content: {
        "application/json": {
          schema: z.object({ payouts: z.array(payoutSchema), nextCursor: z.string().nullable() }),
        },
      },
    },
    // WALLET_SESSION_REQUIRED is the miniapp's key-less prefix's only (left out of the document): with a key, never.
    ...errorResponses(["INVALID_USER_ADDRESS"], "partner"),
  },
});

/** What this operation takes and answers, for its callers and tests. */
export type ListBrebPayoutsQuery = RequestQuery<typeof route>;
export type ListBrebPayoutsResponse = ResponseBody<typeof route, 200>;

export function register(app: OpenAPIHono<AppEnv>) {
  openapiBreb(app, route, async (c) => {
    const { since, ...query } = c.req.valid("query");
    const page = await listPayouts(partnerContext(c), {
      ...query,
      ...(since ? { since: new Date(since) } : {}),
      walletSession: c.req.valid("header")["wallet-session"],
    });
    return c.json(page as { payouts: z.infer<typeof payoutSchema>[]; nextCursor: string | null }, 200);
  });
}
