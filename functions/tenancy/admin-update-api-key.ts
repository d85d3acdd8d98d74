import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/http/env";
import { errorResponses } from "../../lib/http/openapi-errors";
import type { RequestBody, ResponseBody } from "../../lib/http/route-types";
import { setApiKeyExpiry } from "../../lib/tenancy/integrations";
import { ADMIN_SECURITY, apiKeySchema, apiKeyView, expiresAtSchema } from "./views";

const expirySchema = z
  .object({
    expiresAt: expiresAtSchema.nullable().openapi({
      description: "When the key stops working, in the future; null: never.",
      example: "2026-12-01T00:00:00Z",
    }),
  })
  .strict();

export const route = createRoute({
  method: "patch",
  path: "/admin/integrations/{integrationId}/keys/{keyId}",
  operationId: "adminUpdateApiKey",
  summary: "Set or clear an API key's expiry",
  description:
    'A rotation with overlap: issue the new key, give the old one an `expiresAt`, move the partner over; from then the old key answers 401, as a revoked one. `null` clears the expiry. Immediate on the instance that changes it; every other instance within 10 seconds (resolved keys are kept that long). A revoked or expired key is final: 409 `API_KEY_INACTIVE`. Another integration\'s key is 404, as an unknown one (docs/tenancy.md, "Restricted keys").',
  tags: ["Admin"],
  security: ADMIN_SECURITY,
  request: {
    params: z.object({
      integrationId: z.string().openapi({ param: { name: "integrationId", in: "path" } }),
      keyId: z.string().openapi({ param: { name: "keyId", in: "path" } }),
    }),
    body: { required: true, content: { "application/json": { schema: expirySchema } } },
  },
  responses: {
    200: {
      description: "The key as it is now",
      content: { "application/json": { schema: z.object({ key: apiKeySchema }) } },
    },
    ...errorResponses(
      ["API_KEY_NOT_FOUND", "API_KEY_INACTIVE", "UNSUPPORTED_MEDIA_TYPE", "PAYLOAD_TOO_LARGE"],
      "admin",
    ),
  },
});

/** What this operation takes and answers, for its callers and tests. */
export type AdminUpdateApiKeyRequest = RequestBody<typeof route>;
export type AdminUpdateApiKeyResponse = ResponseBody<typeof route, 200>;

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const { integrationId, keyId } = c.req.valid("param");
    const { expiresAt } = c.req.valid("json");
    const key = await setApiKeyExpiry(
      c.get("services"),
      integrationId,
      keyId,
      expiresAt === null ? null : new Date(expiresAt),
    );
    return c.json({ key: apiKeyView(key) }, 200);
  });
}
