import { type OpenAPIHono, z } from "@hono/zod-openapi";
import { refusedCallback } from "../../lib/http/callbacks";
import type { AppEnv } from "../../lib/http/env";
import { BODY_ERRORS, errorResponses } from "../../lib/http/openapi-errors";
import { applyPayoutReport } from "../../lib/payouts/apply-report";
import { BREB_PAYOUT_STATES } from "../../lib/payouts/breb-provider";
import { checkBrebCallback } from "../../lib/vendors/breb/breb-http";

export const BREB_CALLBACK_PATH = "/callbacks/breb";

/**
 * The payout provider's reports. The Standard Webhooks signature (BREB_CALLBACK_SECRET) is checked
 * on the raw body first (401); a signed body that is not the documented report is 400 naming its
 * fields; a duplicate, an out-of-order or an older report changes nothing and still answers 200, so
 * the provider stops retrying.
 */
export function register(app: OpenAPIHono<AppEnv>) {
  app.openAPIRegistry.registerPath({
    method: "post",
    path: BREB_CALLBACK_PATH,
    operationId: "brebPayoutCallback",
    summary: "The payout provider reports a payout's state",
    description:
      "Called by the payout provider, not by partners, as docs/breb-provider.openapi.yaml describes; signed per Standard Webhooks with BREB_CALLBACK_SECRET. A wrong or missing signature is 401 and nothing of the body is read; a signed body that is not JSON or not this shape is 400 naming its fields.",
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
      ...errorResponses(["CALLBACK_SIGNATURE_INVALID", ...BODY_ERRORS], "callback"),
    },
  });

  app.post(BREB_CALLBACK_PATH, async (c) => {
    const services = c.get("services");
    const secret = services.config.BREB_CALLBACK_SECRET;
    const rawBody = await c.req.text();
    const checked = secret
      ? checkBrebCallback(secret, rawBody, Object.fromEntries(c.req.raw.headers), services.clock.now())
      : ({ ok: false, refused: "signature" } as const);
    if (!checked.ok) throw refusedCallback(checked);
    const report = checked.value;
    const { applied } = await applyPayoutReport(services, report);
    return c.json({ received: true, applied }, 200);
  });
}
