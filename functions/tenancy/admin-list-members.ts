import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/http/env";
import { errorResponses } from "../../lib/http/openapi-errors";
import type { ResponseBody } from "../../lib/http/route-types";
import { listMembers } from "../../lib/tenancy/members";
import { memberSchema, memberView } from "./member-views";
import { ADMIN_SECURITY, organizationIdParam } from "./views";

export const route = createRoute({
  method: "get",
  path: "/admin/organizations/{organizationId}/members",
  operationId: "adminListOrganizationMembers",
  summary: "An organization's members, oldest first",
  description: "Revoked members are listed too, with `revokedAt` set.",
  tags: ["Admin"],
  security: ADMIN_SECURITY,
  request: { params: organizationIdParam },
  responses: {
    200: {
      description: "The members",
      content: { "application/json": { schema: z.object({ members: z.array(memberSchema) }) } },
    },
    ...errorResponses(["ORGANIZATION_NOT_FOUND"], "admin"),
  },
});

/** What this operation takes and answers, for its callers and tests. */
export type AdminListOrganizationMembersResponse = ResponseBody<typeof route, 200>;

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const members = await listMembers(c.get("services"), c.req.valid("param").organizationId);
    return c.json({ members: members.map(memberView) }, 200);
  });
}
