import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/http/env";
import { errorResponses } from "../../lib/http/openapi-errors";
import type { ResponseBody } from "../../lib/http/route-types";
import { revokeApiKey } from "../../lib/tenancy/integrations";
import { ADMIN_SECURITY, apiKeySchema, apiKeyView } from "./views";

export const route = createRoute({
  method: "delete",
  path: "/admin/integrations/{integrationId}/keys/{keyId}",
  operationId: "adminRevokeApiKey",
  summary: "Revoke an API key",
  description:
    "Final, and immediate on the instance that revokes it: the next request with the key there answers 401; every other instance refuses it within 10 seconds (resolved keys are kept that long). Revoking again is harmless.",
  tags: ["Admin"],
  security: ADMIN_SECURITY,
  request: {
    params: z.object({
      integrationId: z.string().openapi({ param: { name: "integrationId", in: "path" } }),
      keyId: z.string().openapi({ param: { name: "keyId", in: "path" } }),
    }),
  },
  responses: {
    200: {
      description: "The revoked key",
      content: { "application/json": { schema: z.object({ key: apiKeySchema }) } },
    },
    ...errorResponses(["API_KEY_NOT_FOUND"], "admin"),
  },
});

/** What this operation takes and answers, for its callers and tests. */
export type AdminRevokeApiKeyResponse = ResponseBody<typeof route, 200>;

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const { integrationId, keyId } = c.req.valid("param");
    const key = await revokeApiKey(c.get("services"), integrationId, keyId);
    return c.json({ key: apiKeyView(key) }, 200);
  });
}
