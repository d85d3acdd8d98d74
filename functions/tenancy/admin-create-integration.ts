import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/http/env";
import { errorResponses } from "../../lib/http/openapi-errors";
import type { RequestBody, ResponseBody } from "../../lib/http/route-types";
import { createIntegration } from "../../lib/tenancy/integrations";
import { ADMIN_SECURITY, integrationSchema, integrationView, organizationIdParam } from "./views";

export const route = createRoute({
  method: "post",
  path: "/admin/organizations/{organizationId}/integrations",
  operationId: "adminCreateIntegration",
  summary: "Add an integration to an organization",
  description: "Issue its keys with `POST /admin/integrations/{integrationId}/keys`.",
  tags: ["Admin"],
  security: ADMIN_SECURITY,
  request: {
    params: organizationIdParam,
    body: {
      required: true,
      content: {
        "application/json": { schema: z.object({ name: z.string().trim().min(1).max(200) }).strict() },
      },
    },
  },
  responses: {
    201: {
      description: "Created",
      content: { "application/json": { schema: z.object({ integration: integrationSchema }) } },
    },
    ...errorResponses(["ORGANIZATION_NOT_FOUND", "UNSUPPORTED_MEDIA_TYPE", "PAYLOAD_TOO_LARGE"], "admin"),
  },
});

/** What this operation takes and answers, for its callers and tests. */
export type AdminCreateIntegrationRequest = RequestBody<typeof route>;
export type AdminCreateIntegrationResponse = ResponseBody<typeof route, 201>;

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const { organizationId } = c.req.valid("param");
    const integration = await createIntegration(c.get("services"), organizationId, c.req.valid("json"));
    return c.json({ integration: integrationView(integration) }, 201);
  });
}
