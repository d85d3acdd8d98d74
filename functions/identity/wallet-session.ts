import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/http/env";
import { openapiBreb } from "../../lib/http/miniapp";
import { BODY_ERRORS, errorResponses } from "../../lib/http/openapi-errors";
import { partnerContext } from "../../lib/http/partner-context";
import type { RequestBody, ResponseBody } from "../../lib/http/route-types";
import { SECRET_HEADERS } from "../../lib/http/security-headers";
import { openWalletSession } from "../../lib/identity/wallet-sessions";

export const route = createRoute({
  method: "post",
  path: "/api/integrations/breb/kyc/wallet/session",
  operationId: "openBrebWalletSession",
  summary: "Open the user's wallet session with the signed message",
  description:
    "The message from …/kyc/wallet/challenge, exactly as issued, and the wallet's signature over it. The signature is checked on the payout chain, so smart-contract wallets sign in too (ERC-1271, and ERC-6492 before they are deployed). The answer's `walletSession` goes in the `Wallet-Session` header of the OTP, KYC and payout-creation calls for this `userAddress`; it lasts one hour and is shown once. A message not issued to this integration, or a signature that is not the address's, is INVALID_WALLET_SIGNATURE; a message used or older than ten minutes is WALLET_CHALLENGE_EXPIRED.",
  tags: ["BRE-B identity"],
  request: {
    body: {
      required: true,
      content: {
        "application/json": {
          schema: z
            .object({
              message: z.string().min(1).max(4096),
              signature: z
                .string()
                .max(8_192)
                .regex(/^0x([0-9a-fA-F]{2})+$/, "must be the signature in 0x hex")
                .openapi({ description: "65 bytes from an EOA; longer for smart-contract wallets." }),
            })
            .strict()
            .openapi("WalletSessionRequest"),
        },
      },
    },
  },
  responses: {
    200: {
      description: "The session",
      content: {
        "application/json": {
          schema: z
            .object({
              walletSession: z.string().openapi({ description: "Shown once: send it as `Wallet-Session`." }),
              userAddress: z.string(),
              expiresAt: z.string().datetime(),
            })
            .openapi("WalletSession"),
        },
      },
    },
    ...errorResponses(
      [
        "SANCTIONED_ADDRESS",
        "SCREENING_UNAVAILABLE",
        "INVALID_WALLET_SIGNATURE",
        "WALLET_CHALLENGE_EXPIRED",
        "PROVIDER_UNAVAILABLE",
        "PAYOUTS_UNCONFIGURED",
        ...BODY_ERRORS,
      ],
      "partner",
    ),
  },
});

/** What this operation takes and answers, for its callers and tests. */
export type OpenBrebWalletSessionRequest = RequestBody<typeof route>;
export type OpenBrebWalletSessionResponse = ResponseBody<typeof route, 200>;

export function register(app: OpenAPIHono<AppEnv>) {
  openapiBreb(app, route, async (c) => {
    const { message, signature } = c.req.valid("json");
    return c.json(
      await openWalletSession(partnerContext(c), { message, signature: signature as `0x${string}` }),
      200,
      SECRET_HEADERS,
    );
  });
}
