import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/http/env";
import { errorResponses } from "../../lib/http/openapi-errors";
import { listApiKeys } from "../../lib/tenancy/integrations";
import { ADMIN_SECURITY, apiKeySchema, apiKeyView, integrationIdParam } from "./views";

export const route = createRoute({
  method: "get",
  path: "/admin/integrations/{integrationId}/keys",
  operationId: "adminListApiKeys",
  summary: "An integration's API keys, newest first (never the keys themselves)",
  tags: ["Admin"],
  security: ADMIN_SECURITY,
  request: { params: integrationIdParam },
  responses: {
    200: {
      description: "The keys",
      content: { "application/json": { schema: z.object({ keys: z.array(apiKeySchema) }) } },
    },
    ...errorResponses(["INTEGRATION_NOT_FOUND"], "admin"),
  },
});

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const keys = await listApiKeys(c.get("services"), c.req.valid("param").integrationId);
    return c.json({ keys: keys.map(apiKeyView) }, 200);
  });
}
