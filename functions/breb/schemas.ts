import { z } from "@hono/zod-openapi";
import { issueCode } from "../../lib/http/validation";
import {
  CHECKSUMMED_ADDRESS_RULE,
  EMAIL_RULE,
  isChecksummedAddress,
  isEmail,
} from "../../lib/kyc/identity-input";

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
