import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/http/env";
import { errorResponses } from "../../lib/http/openapi-errors";
import type { RequestBody, ResponseBody } from "../../lib/http/route-types";
import { addMember } from "../../lib/tenancy/members";
import { memberEmailSchema, memberRoleSchema, memberSchema, memberView } from "./member-views";
import { ADMIN_SECURITY, organizationIdParam } from "./views";

const memberBody = { "application/json": { schema: z.object({ member: memberSchema }) } };

export const route = createRoute({
  method: "post",
  path: "/admin/organizations/{organizationId}/members",
  operationId: "adminAddOrganizationMember",
  summary: "Add a member (a dashboard user, by email) to an organization",
  description:
    "The email is stored lower-cased; `role` defaults to `owner` (the operator adds a partner's first people; owners and admins invite the rest from the dashboard). Adding an email that is already an active member of the organization is harmless: it answers 200 with that member, unchanged. A revoked member's email is added again as a new member (201).",
  tags: ["Admin"],
  security: ADMIN_SECURITY,
  request: {
    params: organizationIdParam,
    body: {
      required: true,
      content: {
        "application/json": {
          schema: z.object({ email: memberEmailSchema, role: memberRoleSchema.optional() }).strict(),
        },
      },
    },
  },
  responses: {
    200: { description: "Already a member: the existing member", content: memberBody },
    201: { description: "Added", content: memberBody },
    ...errorResponses(
      ["INVALID_EMAIL", "ORGANIZATION_NOT_FOUND", "UNSUPPORTED_MEDIA_TYPE", "PAYLOAD_TOO_LARGE"],
      "admin",
    ),
  },
});

/** What this operation takes and answers, for its callers and tests. */
export type AdminAddOrganizationMemberRequest = RequestBody<typeof route>;
export type AdminAddOrganizationMemberResponse = ResponseBody<typeof route, 200>;

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const { organizationId } = c.req.valid("param");
    const { member, created } = await addMember(c.get("services"), organizationId, c.req.valid("json"));
    return created
      ? c.json({ member: memberView(member) }, 201)
      : c.json({ member: memberView(member) }, 200);
  });
}
