import { type OpenAPIHono, z } from "@hono/zod-openapi";
import { refusedCallback } from "../../lib/http/callbacks";
import type { AppEnv } from "../../lib/http/env";
import { BODY_ERRORS, errorResponses } from "../../lib/http/openapi-errors";
import { applyKycCallback } from "../../lib/identity/kyc-records";
import { checkKycCallback } from "../../lib/vendors/kyc/kyc-http";

export const KYC_CALLBACK_PATH = "/callbacks/kyc";

const callbackBody = z
  .object({
    type: z.literal("kyc.status"),
    data: z.object({
      customerId: z.string(),
      externalId: z.string().openapi({ description: "The service's KYC record id it was created with." }),
      status: z.enum(["pending", "approved", "rejected"]),
      updatedAt: z.string().datetime({ offset: true }),
    }),
  })
  .openapi("KycCallback");

/**
 * The KYC provider's decisions. The Standard Webhooks signature (KYC_CALLBACK_SECRET) is checked on
 * the raw body before anything is read from it (401); a signed body that is not the documented shape is
 * 400 naming its fields; a replay or a report older than the one held changes nothing, and still
 * answers 200 so the provider stops retrying.
 */
export function register(app: OpenAPIHono<AppEnv>) {
  app.openAPIRegistry.registerPath({
    method: "post",
    path: KYC_CALLBACK_PATH,
    operationId: "kycCallback",
    summary: "The KYC provider reports a decision",
    description:
      "Called by the KYC provider, not by partners. Signed per Standard Webhooks with KYC_CALLBACK_SECRET (`webhook-id`, `webhook-timestamp` within 5 minutes, `webhook-signature`) over the raw body (docs/kyc-provider-contract.md). A wrong or missing signature is 401 and nothing of the body is read; a signed body that is not JSON or not this shape is 400 naming its fields.",
    tags: ["Callbacks"],
    security: [],
    request: { body: { required: true, content: { "application/json": { schema: callbackBody } } } },
    responses: {
      200: {
        description: "Received; `applied` is false for a replay, an older report or an unknown customer",
        content: {
          "application/json": { schema: z.object({ received: z.literal(true), applied: z.boolean() }) },
        },
      },
      ...errorResponses(["CALLBACK_SIGNATURE_INVALID", ...BODY_ERRORS], "callback"),
    },
  });

  app.post(KYC_CALLBACK_PATH, async (c) => {
    const services = c.get("services");
    const secret = services.config.KYC_CALLBACK_SECRET;
    const rawBody = await c.req.text();
    const headers = Object.fromEntries(c.req.raw.headers);
    const checked = secret
      ? checkKycCallback(secret, rawBody, headers, services.clock.now())
      : ({ ok: false, refused: "signature" } as const);
    if (!checked.ok) throw refusedCallback(checked);
    const callback = checked.value;
    const { applied } = await applyKycCallback(services, callback);
    return c.json({ received: true, applied }, 200);
  });
}
