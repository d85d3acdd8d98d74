import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/http/env";
import { openapiBreb } from "../../lib/http/miniapp";
import { BODY_ERRORS, errorResponses } from "../../lib/http/openapi-errors";
import { partnerContext } from "../../lib/http/partner-context";
import type { RequestBody, ResponseBody } from "../../lib/http/route-types";
import { verifyOtp } from "../../lib/identity/verify-otp";
import { emailSchema, kycSchema, userAddressSchema, walletSessionHeader } from "./schemas";

export const route = createRoute({
  method: "post",
  path: "/api/integrations/breb/kyc/otp/verify",
  operationId: "verifyBrebOtp",
  summary: "Verify the code and get the user's KYC status",
  description:
    "Needs the wallet's session (`Wallet-Session`, for `userAddress`): an email is never tied to a wallet, nor a record moved to another email, without the wallet. Checks the latest code sent for this email and wallet. A wrong code is OTP_INVALID with `attemptsLeft`; the fifth wrong one locks the code (OTP_LOCKED). The right code proves the email and answers the KYC status: mock mode approves at once; otherwise the email is linked to the user's record at the KYC provider and, until approved, the answer carries `kycLink` and `termsLink`. The same right code again answers the same.",
  tags: ["BRE-B identity"],
  request: {
    headers: z.object(walletSessionHeader),
    body: {
      required: true,
      content: {
        "application/json": {
          schema: z
            .object({
              email: emailSchema,
              userAddress: userAddressSchema,
              code: z
                .string()
                .regex(/^\d{6}$/, "must be the six digits sent")
                .openapi({ example: "123456" }),
            })
            .strict()
            .openapi("OtpVerifyRequest"),
        },
      },
    },
  },
  responses: {
    200: {
      description: "The email is proven; the user's KYC",
      content: { "application/json": { schema: z.object({ kyc: kycSchema }) } },
    },
    ...errorResponses(
      [
        "SANCTIONED_ADDRESS",
        "SCREENING_UNAVAILABLE",
        "INVALID_EMAIL",
        "INVALID_USER_ADDRESS",
        "WALLET_SESSION_REQUIRED",
        "OTP_INVALID",
        "OTP_EXPIRED",
        "OTP_NOT_FOUND",
        "OTP_LOCKED",
        "PROVIDER_UNAVAILABLE",
        ...BODY_ERRORS,
      ],
      "partner",
    ),
  },
});

/** What this operation takes and answers, for its callers and tests. */
export type VerifyBrebOtpRequest = RequestBody<typeof route>;
export type VerifyBrebOtpResponse = ResponseBody<typeof route, 200>;

export function register(app: OpenAPIHono<AppEnv>) {
  openapiBreb(app, route, async (c) =>
    c.json(
      {
        kyc: await verifyOtp(partnerContext(c), {
          ...c.req.valid("json"),
          walletSession: c.req.valid("header")["wallet-session"],
        }),
      },
      200,
    ),
  );
}
