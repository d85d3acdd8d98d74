import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/http/env";
import { errorResponses } from "../../lib/http/openapi-errors";
import type { RequestBody, ResponseBody } from "../../lib/http/route-types";
import { changeMemberRole } from "../../lib/tenancy/members";
import { memberParams, memberRoleSchema, memberSchema, memberView } from "./member-views";
import { ADMIN_SECURITY } from "./views";

export const route = createRoute({
  method: "patch",
  path: "/admin/organizations/{organizationId}/members/{memberId}",
  operationId: "adminUpdateOrganizationMember",
  summary: "Change a member's role",
  description:
    "The same role answers the member unchanged. The organization keeps at least one owner: demoting the last one is 409 LAST_OWNER. A revoked member, an unknown one or another organization's answers 404 NOT_FOUND.",
  tags: ["Admin"],
  security: ADMIN_SECURITY,
  request: {
    params: memberParams,
    body: {
      required: true,
      content: { "application/json": { schema: z.object({ role: memberRoleSchema }).strict() } },
    },
  },
  responses: {
    200: {
      description: "The member with its role",
      content: { "application/json": { schema: z.object({ member: memberSchema }) } },
    },
    ...errorResponses(
      ["NOT_FOUND", "ORGANIZATION_NOT_FOUND", "LAST_OWNER", "UNSUPPORTED_MEDIA_TYPE", "PAYLOAD_TOO_LARGE"],
      "admin",
    ),
  },
});

/** What this operation takes and answers, for its callers and tests. */
export type AdminUpdateOrganizationMemberRequest = RequestBody<typeof route>;
export type AdminUpdateOrganizationMemberResponse = ResponseBody<typeof route, 200>;

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const { organizationId, memberId } = c.req.valid("param");
    const member = await changeMemberRole(
      c.get("services"),
      organizationId,
      memberId,
      c.req.valid("json").role,
    );
    return c.json({ member: memberView(member) }, 200);
  });
}
