import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/http/env";
import { openapiBreb } from "../../lib/http/miniapp";
import { BODY_ERRORS, errorResponses } from "../../lib/http/openapi-errors";
import { partnerContext } from "../../lib/http/partner-context";
import type { RequestBody, ResponseBody } from "../../lib/http/route-types";
import { isSiweField, issueWalletChallenge } from "../../lib/identity/wallet-sessions";
import { userAddressSchema } from "./schemas";

export const route = createRoute({
  method: "post",
  path: "/api/integrations/breb/kyc/wallet/challenge",
  operationId: "createBrebWalletChallenge",
  summary: "A Sign-In with Ethereum message for the user's wallet to sign",
  description:
    "The first step of every BRE-B operation on a user: an EIP-4361 message for `userAddress`, with a fresh nonce, the payout chain's id and ten minutes to sign it. The wallet signs it as it is (`personal_sign`), then POST …/kyc/wallet/session opens the session the other operations need. `domain` and `uri` are your app's, as the wallet shows them to the person (default: this service's); each message is good once.",
  tags: ["BRE-B identity"],
  request: {
    body: {
      required: true,
      content: {
        "application/json": {
          schema: z
            .object({
              userAddress: userAddressSchema,
              domain: z
                .string()
                .max(260)
                .refine(
                  (value) => isSiweField("domain", value),
                  "must be a host name with an optional port, such as wallet.example.com (EIP-4361's domain)",
                )
                .optional()
                .openapi({
                  description: "Your app's host, as its page's origin has it.",
                  example: "wallet.example.com",
                }),
              uri: z
                .string()
                .max(2048)
                .refine(
                  (value) => /^https?:\/\//.test(value) && isSiweField("uri", value),
                  "must be an http(s) URL (EIP-4361's URI)",
                )
                .optional()
                .openapi({
                  description: "Your app's page asking for the signature.",
                  example: "https://wallet.example.com/payouts",
                }),
            })
            .strict()
            .openapi("WalletChallengeRequest"),
        },
      },
    },
  },
  responses: {
    201: {
      description: "The message to sign",
      content: {
        "application/json": {
          schema: z
            .object({
              challengeId: z.string(),
              message: z.string().openapi({ description: "Sign exactly this text (EIP-191 personal_sign)." }),
              expiresAt: z.string().datetime(),
            })
            .openapi("WalletChallenge"),
        },
      },
    },
    ...errorResponses(["INVALID_USER_ADDRESS", "PAYOUTS_UNCONFIGURED", ...BODY_ERRORS], "partner"),
  },
});

/** What this operation takes and answers, for its callers and tests. */
export type CreateBrebWalletChallengeRequest = RequestBody<typeof route>;
export type CreateBrebWalletChallengeResponse = ResponseBody<typeof route, 201>;

export function register(app: OpenAPIHono<AppEnv>) {
  openapiBreb(app, route, async (c) =>
    c.json(await issueWalletChallenge(partnerContext(c), c.req.valid("json")), 201),
  );
}
