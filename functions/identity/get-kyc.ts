import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/http/env";
import { openapiBreb } from "../../lib/http/miniapp";
import { errorResponses } from "../../lib/http/openapi-errors";
import { partnerContext } from "../../lib/http/partner-context";
import type { RequestQuery, ResponseBody } from "../../lib/http/route-types";
import { readWalletKyc } from "../../lib/identity/kyc-records";
import { kycSchema, userAddressSchema, walletSessionHeader } from "./schemas";

export const route = createRoute({
  method: "get",
  path: "/api/integrations/breb/kyc",
  operationId: "getBrebKyc",
  summary: "The user's KYC status",
  description:
    "Needs the wallet's session (`Wallet-Session`, for `userAddress`): nobody without the wallet reads its KYC or links. For polling: `not_started` (no email proven with this integration), `pending`, `approved` or `rejected`, with the provider's links while not approved. Another integration's users are `not_started` here.",
  tags: ["BRE-B identity"],
  request: { query: z.object({ userAddress: userAddressSchema }), headers: z.object(walletSessionHeader) },
  responses: {
    200: {
      description: "The user's KYC",
      content: { "application/json": { schema: z.object({ kyc: kycSchema }) } },
    },
    ...errorResponses(["INVALID_USER_ADDRESS", "WALLET_SESSION_REQUIRED"], "partner"),
  },
});

/** What this operation takes and answers, for its callers and tests. */
export type GetBrebKycQuery = RequestQuery<typeof route>;
export type GetBrebKycResponse = ResponseBody<typeof route, 200>;

export function register(app: OpenAPIHono<AppEnv>) {
  openapiBreb(app, route, async (c) =>
    c.json(
      {
        kyc: await readWalletKyc(partnerContext(c), {
          userAddress: c.req.valid("query").userAddress,
          walletSession: c.req.valid("header")["wallet-session"],
        }),
      },
      200,
    ),
  );
}
