import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/http/env";
import { errorResponses } from "../../lib/http/openapi-errors";
import type { ResponseBody } from "../../lib/http/route-types";
import { revokeMember } from "../../lib/tenancy/members";
import { memberParams, memberSchema, memberView } from "./member-views";
import { ADMIN_SECURITY } from "./views";

export const route = createRoute({
  method: "delete",
  path: "/admin/organizations/{organizationId}/members/{memberId}",
  operationId: "adminRevokeOrganizationMember",
  summary: "Revoke a member",
  description:
    "Immediate; the member stays listed with `revokedAt`. Revoking again is harmless and answers the member as it is. An unknown member, or another organization's, answers 404 NOT_FOUND; the organization's last owner, 409 LAST_OWNER.",
  tags: ["Admin"],
  security: ADMIN_SECURITY,
  request: { params: memberParams },
  responses: {
    200: {
      description: "The revoked member",
      content: { "application/json": { schema: z.object({ member: memberSchema }) } },
    },
    ...errorResponses(["NOT_FOUND", "ORGANIZATION_NOT_FOUND", "LAST_OWNER"], "admin"),
  },
});

/** What this operation takes and answers, for its callers and tests. */
export type AdminRevokeOrganizationMemberResponse = ResponseBody<typeof route, 200>;

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const { organizationId, memberId } = c.req.valid("param");
    const member = await revokeMember(c.get("services"), organizationId, memberId);
    return c.json({ member: memberView(member) }, 200);
  });
}
