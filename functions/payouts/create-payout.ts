import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/http/env";
import { openapiBreb } from "../../lib/http/miniapp";
import { BODY_ERRORS, errorResponses } from "../../lib/http/openapi-errors";
import { partnerContext } from "../../lib/http/partner-context";
import type { RequestBody, ResponseBody } from "../../lib/http/route-types";
import { BREB_KEY_RULE } from "../../lib/payouts/breb-key";
import { createPayout } from "../../lib/payouts/create-payout";
import { userAddressSchema, walletSessionHeader } from "../identity/schemas";
import { payoutCreationSchema } from "./schemas";

const payoutRequestSchema = z
  .object({
    quoteId: z.string().min(1).max(100).openapi({ example: "bq_01KAZ6XQ4R8N2M5V7B9C1D3F5G" }),
    userAddress: userAddressSchema,
    // The key's shape is checked after the quote and KYC (INVALID_BREB_KEY), as the checks' order says.
    breBKey: z
      .string()
      .openapi({ description: `The BRE-B key: it ${BREB_KEY_RULE}.`, example: "3001234567" }),
    accountOwnerName: z.string().trim().min(2).max(140).openapi({ example: "Ana Pérez" }),
  })
  .strict()
  .openapi("PayoutRequest");

export const route = createRoute({
  method: "post",
  path: "/api/integrations/breb/payouts",
  operationId: "createBrebPayout",
  summary: "Create a BRE-B payout and the deposit the user signs",
  description:
    "In this order, creating nothing unless all pass: the quote (QUOTE_NOT_FOUND, QUOTE_ALREADY_USED, QUOTE_EXPIRED), the user's wallet session (WALLET_SESSION_REQUIRED: `Wallet-Session` for `userAddress`) and KYC (KYC_REQUIRED, with the links), the key's shape (INVALID_BREB_KEY), and the provider's resolution of the key to the named owner (409 `destination_mismatch`: stop, and ask the user to send nothing). The answer's `deposit.steps` (approve, then deposit on the payout depositor) are EIP-712-signed by the service: verify them before the user signs. The user must not change them. Same Idempotency-Key and same body replays the first answer byte for byte; another body is IDEMPOTENCY_CONFLICT.",
  tags: ["BRE-B payouts"],
  request: {
    headers: z.object({
      "idempotency-key": z
        .string()
        .min(1)
        .max(200)
        .openapi({ description: "One per logical payout, at most 200 characters." }),
      ...walletSessionHeader,
    }),
    body: { required: true, content: { "application/json": { schema: payoutRequestSchema } } },
  },
  responses: {
    201: {
      description: "The payout, awaiting the deposit",
      content: { "application/json": { schema: payoutCreationSchema } },
    },
    ...errorResponses(
      [
        "SANCTIONED_ADDRESS",
        "SCREENING_UNAVAILABLE",
        "INVALID_IDEMPOTENCY_KEY",
        "INVALID_USER_ADDRESS",
        "INVALID_BREB_KEY",
        "QUOTE_NOT_FOUND",
        "QUOTE_EXPIRED",
        "QUOTE_ALREADY_USED",
        "IDEMPOTENCY_CONFLICT",
        "WALLET_SESSION_REQUIRED",
        "KYC_REQUIRED",
        "destination_mismatch",
        "PROVIDER_UNAVAILABLE",
        "PAYOUTS_UNCONFIGURED",
        ...BODY_ERRORS,
      ],
      "partner",
    ),
  },
});

/** What this operation takes and answers, for its callers and tests. */
export type CreateBrebPayoutRequest = RequestBody<typeof route>;
export type CreateBrebPayoutResponse = ResponseBody<typeof route, 201>;

export function register(app: OpenAPIHono<AppEnv>) {
  openapiBreb(app, route, async (c) => {
    const body = c.req.valid("json");
    const fields = [body.quoteId, body.userAddress, body.breBKey, body.accountOwnerName];
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(JSON.stringify(fields)));
    const creation = await createPayout(partnerContext(c), {
      ...body,
      idempotencyKey: c.req.valid("header")["idempotency-key"],
      walletSession: c.req.valid("header")["wallet-session"],
      requestHash: [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join(""),
    });
    return c.json(JSON.parse(creation), 201);
  });
}
