import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/http/env";
import { errorResponses } from "../../lib/http/openapi-errors";
import type { RequestBody, ResponseBody } from "../../lib/http/route-types";
import { SECRET_HEADERS } from "../../lib/http/security-headers";
import { issueApiKey } from "../../lib/tenancy/integrations";
import {
  ADMIN_SECURITY,
  apiKeySchema,
  apiKeyView,
  integrationIdParam,
  issuedKeySchema,
  keyRequestOf,
  keyRequestSchema,
} from "./views";

export const route = createRoute({
  method: "post",
  path: "/admin/integrations/{integrationId}/keys",
  operationId: "adminCreateApiKey",
  summary: "Issue an API key for an integration",
  description:
    'Keys can be rotated by issuing a new one, moving the partner to it, then revoking the old one (or giving the old one an `expiresAt`). A restricted key names its `scopes`, `allowedIps` and `expiresAt` (docs/tenancy.md, "Restricted keys").',
  tags: ["Admin"],
  security: ADMIN_SECURITY,
  request: {
    params: integrationIdParam,
    body: {
      required: false,
      content: {
        "application/json": {
          schema: keyRequestSchema,
        },
      },
    },
  },
  responses: {
    201: {
      description: "Issued. `apiKey` is shown only here.",
      content: { "application/json": { schema: z.object({ key: apiKeySchema, apiKey: issuedKeySchema }) } },
    },
    ...errorResponses(
      ["INTEGRATION_NOT_FOUND", "API_KEY_LIMIT_REACHED", "UNSUPPORTED_MEDIA_TYPE", "PAYLOAD_TOO_LARGE"],
      "admin",
    ),
  },
});

/** What this operation takes and answers, for its callers and tests. */
export type AdminCreateApiKeyRequest = RequestBody<typeof route>;
export type AdminCreateApiKeyResponse = ResponseBody<typeof route, 201>;

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const { integrationId } = c.req.valid("param");
    const issued = await issueApiKey(c.get("services"), integrationId, keyRequestOf(c.req.valid("json")));
    return c.json({ key: apiKeyView(issued.record), apiKey: issued.apiKey }, 201, SECRET_HEADERS);
  });
}
