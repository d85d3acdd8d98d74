import { type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/http/env";
import { respondWithError } from "../../lib/http/errors";
import { BODY_ERRORS, errorResponses } from "../../lib/http/openapi-errors";
import { ApiError } from "../../lib/kernel/errors/api-error";
import { applyPayoutReport } from "../../lib/payouts/advance";
import { BREB_PAYOUT_STATES } from "../../lib/payouts/breb-provider";
import { verifyBrebCallback } from "../../lib/vendors/breb/breb-http";

export const BREB_CALLBACK_PATH = "/callbacks/breb";

/**
 * The payout provider's reports. The Standard Webhooks signature (BREB_CALLBACK_SECRET) is checked
 * on the raw body first; a duplicate, an out-of-order or an older report changes nothing and still
 * answers 200, so the provider stops retrying.
 */
export function register(app: OpenAPIHono<AppEnv>) {
  app.openAPIRegistry.registerPath({
    method: "post",
    path: BREB_CALLBACK_PATH,
    operationId: "brebPayoutCallback",
    summary: "The payout provider reports a payout's state",
    description:
      "Called by the payout provider, not by partners, as docs/breb-provider.openapi.yaml describes; signed per Standard Webhooks with BREB_CALLBACK_SECRET.",
    tags: ["Callbacks"],
    security: [],
    request: {
      body: {
        required: true,
        content: {
          "application/json": {
            schema: z.object({
              type: z.literal("payout.status"),
              data: z.object({
                payoutId: z.string(),
                providerPayoutId: z.string(),
                status: z.enum(BREB_PAYOUT_STATES),
                brebTransactionId: z.string().optional(),
                failureReason: z.string().optional(),
                refundTxHash: z.string().optional(),
                updatedAt: z.string().datetime({ offset: true }),
              }),
            }),
          },
        },
      },
    },
    responses: {
      200: {
        description: "Received; `applied` is false for a duplicate, an older report or an unknown payout",
        content: {
          "application/json": { schema: z.object({ received: z.literal(true), applied: z.boolean() }) },
        },
      },
      ...errorResponses(["CALLBACK_SIGNATURE_INVALID", ...BODY_ERRORS], "none"),
    },
  });

  app.post(BREB_CALLBACK_PATH, async (c) => {
    const services = c.get("services");
    const secret = services.config.BREB_CALLBACK_SECRET;
    const rawBody = await c.req.text();
    const report = secret
      ? verifyBrebCallback(secret, rawBody, Object.fromEntries(c.req.raw.headers), services.clock.now())
      : undefined;
    if (!report) return respondWithError(c, new ApiError("CALLBACK_SIGNATURE_INVALID"));
    const { applied } = await applyPayoutReport(services, report);
    return c.json({ received: true, applied }, 200);
  });
}
