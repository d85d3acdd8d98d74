import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/http/env";
import { errorResponses } from "../../lib/http/openapi-errors";
import type { ResponseBody } from "../../lib/http/route-types";
import { listIntegrations } from "../../lib/tenancy/integrations";
import { getOrganization } from "../../lib/tenancy/organizations";
import {
  ADMIN_SECURITY,
  integrationSchema,
  integrationView,
  organizationIdParam,
  organizationSchema,
  organizationView,
} from "./views";

export const route = createRoute({
  method: "get",
  path: "/admin/organizations/{organizationId}",
  operationId: "adminGetOrganization",
  summary: "An organization and its integrations",
  description: "The organization's settings and every integration it has.",
  tags: ["Admin"],
  security: ADMIN_SECURITY,
  request: { params: organizationIdParam },
  responses: {
    200: {
      description: "The organization",
      content: {
        "application/json": {
          schema: z.object({ organization: organizationSchema, integrations: z.array(integrationSchema) }),
        },
      },
    },
    ...errorResponses(["ORGANIZATION_NOT_FOUND"], "admin"),
  },
});

/** What this operation takes and answers, for its callers and tests. */
export type AdminGetOrganizationResponse = ResponseBody<typeof route, 200>;

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const services = c.get("services");
    const { organizationId } = c.req.valid("param");
    const organization = await getOrganization(services, organizationId);
    const integrations = await listIntegrations(services, organizationId);
    return c.json(
      { organization: organizationView(organization), integrations: integrations.map(integrationView) },
      200,
    );
  });
}
