import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/http/env";
import { errorResponses } from "../../lib/http/openapi-errors";
import type { ResponseBody } from "../../lib/http/route-types";
import { SECRET_HEADERS } from "../../lib/http/security-headers";
import { rotateSecret } from "../../lib/webhooks/endpoints";
import { endpointSchema, signingSecretSchema } from "./schemas";

export const route = createRoute({
  method: "post",
  path: "/api/integrations/webhooks/endpoint/rotate-secret",
  operationId: "rotateWebhookSecret",
  summary: "Rotate the endpoint's signing secret",
  description:
    "Answers a new secret, shown only here. For 24 hours (`previousSecretValidUntil`) every delivery carries two signatures in `webhook-signature`, one by each secret, so a receiver verifies with either while it switches.",
  tags: ["Webhooks"],
  responses: {
    200: {
      description: "The new secret: store it now",
      content: {
        "application/json": { schema: z.object({ endpoint: endpointSchema, secret: signingSecretSchema }) },
      },
    },
    ...errorResponses(["WEBHOOK_ENDPOINT_NOT_FOUND", "WEBHOOKS_UNCONFIGURED"], "partner"),
  },
});

/** What this operation takes and answers, for its callers and tests. */
export type RotateWebhookSecretResponse = ResponseBody<typeof route, 200>;

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    return c.json(await rotateSecret(c.get("services"), c.get("caller")), 200, SECRET_HEADERS);
  });
}
