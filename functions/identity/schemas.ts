import { z } from "@hono/zod-openapi";
import { issueCode } from "../../lib/http/validation";
import {
  CHECKSUMMED_ADDRESS_RULE,
  EMAIL_RULE,
  isChecksummedAddress,
  isEmail,
} from "../../lib/identity/identity-input";

export const emailSchema = z
  .string()
  .refine(isEmail, { message: EMAIL_RULE, params: issueCode("INVALID_EMAIL") })
  .openapi({ description: "The user's email; matched case-insensitively.", example: "ana@example.com" });

export const userAddressSchema = z
  .string()
  .refine(isChecksummedAddress, {
    message: CHECKSUMMED_ADDRESS_RULE,
    params: issueCode("INVALID_USER_ADDRESS"),
  })
  .openapi({
    description: "The user's wallet, EIP-55 checksummed (all-lower-case is refused).",
    example: "0x8ba1f109551bD432803012645Ac136ddd64DBA72",
  });

export const kycSchema = z
  .object({
    status: z.enum(["not_started", "pending", "approved", "rejected"]),
    kycLink: z
      .string()
      .url()
      .optional()
      .openapi({ description: "While not approved: the KYC provider's hosted page for the user." }),
    termsLink: z
      .string()
      .url()
      .optional()
      .openapi({ description: "While not approved: the terms the user accepts at the provider." }),
  })
  .openapi("Kyc", {
    example: {
      status: "pending",
      kycLink: "https://kyc.example.com/kyc/cus_123",
      termsLink: "https://kyc.example.com/terms/cus_123",
    },
  });

/** The header every BRE-B operation on a user's wallet carries: the session its signature opened. */
export const walletSessionHeader = {
  "wallet-session": z.string().max(200).optional().openapi({
    description:
      "The user's wallet session (`wsess_…`, from POST …/kyc/wallet/session): proof that the person controls `userAddress`. Without a live one for this address and integration: 403 WALLET_SESSION_REQUIRED.",
    example: "wsess_Jx1y8m0cQ2Zb7o9dYpQz3kQ4uV5wX6yZ7a8b9c0d1e2",
  }),
};
