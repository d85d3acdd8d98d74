import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/http/env";
import { openapiBreb } from "../../lib/http/miniapp";
import { BODY_ERRORS, errorResponses } from "../../lib/http/openapi-errors";
import { partnerContext } from "../../lib/http/partner-context";
import type { RequestBody, ResponseBody } from "../../lib/http/route-types";
import { sendOtp } from "../../lib/identity/send-otp";
import { emailSchema, userAddressSchema, walletSessionHeader } from "./schemas";

export const route = createRoute({
  method: "post",
  path: "/api/integrations/breb/kyc/otp/send",
  operationId: "sendBrebOtp",
  summary: "Send a one-time code to the user's email",
  description:
    "Needs the wallet's session (`Wallet-Session`, for `userAddress`). A 6-digit code, valid 10 minutes, for this email and wallet; a newer code replaces the older. Per email: one send per 30 s (OTP_RESEND_TOO_SOON) and ten per hour (OTP_SEND_LIMIT_REACHED), both 429 with Retry-After. Live mode emails the code; mock mode answers it as `debugCode` (MOCK_OTP_CODE, default 123456) and also emails it when an email provider is configured.",
  tags: ["BRE-B identity"],
  request: {
    headers: z.object(walletSessionHeader),
    body: {
      required: true,
      content: {
        "application/json": {
          schema: z
            .object({ email: emailSchema, userAddress: userAddressSchema })
            .strict()
            .openapi("OtpSendRequest"),
        },
      },
    },
  },
  responses: {
    200: {
      description: "The code was sent",
      content: {
        "application/json": {
          schema: z
            .object({
              otpId: z.string(),
              expiresAt: z.string().datetime(),
              resendAfter: z.string().datetime().openapi({ description: "No new code before this instant." }),
              debugCode: z.string().optional().openapi({ description: "Mock mode only: the code." }),
            })
            .openapi("OtpSent", {
              example: {
                otpId: "otp_01KAZ6XQ4R8N2M5V7B9C1D3F5G",
                expiresAt: "2026-11-23T15:10:00.000Z",
                resendAfter: "2026-11-23T15:00:30.000Z",
                debugCode: "123456",
              },
            }),
        },
      },
    },
    ...errorResponses(
      [
        "SANCTIONED_ADDRESS",
        "SCREENING_UNAVAILABLE",
        "INVALID_EMAIL",
        "INVALID_USER_ADDRESS",
        "WALLET_SESSION_REQUIRED",
        "OTP_RESEND_TOO_SOON",
        "OTP_SEND_LIMIT_REACHED",
        "EMAIL_UNAVAILABLE",
        ...BODY_ERRORS,
      ],
      "partner",
    ),
  },
});

/** What this operation takes and answers, for its callers and tests. */
export type SendBrebOtpRequest = RequestBody<typeof route>;
export type SendBrebOtpResponse = ResponseBody<typeof route, 200>;

export function register(app: OpenAPIHono<AppEnv>) {
  openapiBreb(app, route, async (c) =>
    c.json(
      await sendOtp(partnerContext(c), {
        ...c.req.valid("json"),
        walletSession: c.req.valid("header")["wallet-session"],
      }),
      200,
    ),
  );
}
