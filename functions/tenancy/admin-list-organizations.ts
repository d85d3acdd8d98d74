import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/http/env";
import { errorResponses } from "../../lib/http/openapi-errors";
import type { RequestQuery, ResponseBody } from "../../lib/http/route-types";
import { listOrganizations } from "../../lib/tenancy/organizations";
import { ADMIN_SECURITY, organizationSchema, organizationView } from "./views";

export const route = createRoute({
  method: "get",
  path: "/admin/organizations",
  operationId: "adminListOrganizations",
  summary: "List organizations, oldest first",
  description: "Pages by id: pass the last id you saw as `after`.",
  tags: ["Admin"],
  security: ADMIN_SECURITY,
  request: {
    query: z.object({
      limit: z.coerce.number().int().min(1).max(500).default(100),
      after: z.string().min(1).optional(),
    }),
  },
  responses: {
    200: {
      description: "A page of organizations",
      content: { "application/json": { schema: z.object({ organizations: z.array(organizationSchema) }) } },
    },
    ...errorResponses([], "admin"),
  },
});

/** What this operation takes and answers, for its callers and tests. */
export type AdminListOrganizationsQuery = RequestQuery<typeof route>;
export type AdminListOrganizationsResponse = ResponseBody<typeof route, 200>;

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const rows = await listOrganizations(c.get("services"), c.req.valid("query"));
    return c.json({ organizations: rows.map(organizationView) }, 200);
  });
}
