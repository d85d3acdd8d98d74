import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { resetTwoFactor } from "../../lib/dashboard/two-factor";
import type { AppEnv } from "../../lib/http/env";
import { errorResponses } from "../../lib/http/openapi-errors";
import type { ResponseBody } from "../../lib/http/route-types";
import { memberParams, memberSchema, memberView } from "./member-views";
import { ADMIN_SECURITY } from "./views";

export const route = createRoute({
  method: "delete",
  path: "/admin/organizations/{organizationId}/members/{memberId}/two-factor",
  operationId: "adminResetOrganizationMemberTwoFactor",
  summary: "Reset a member's two-factor sign-in",
  description:
    "For a member who lost their authenticator and recovery codes, and whose organization has no other owner or admin to reset it: turns the member's two-factor sign-in off, voids their recovery codes and ends their sessions. Where the organization requires two-factor, their next sign-in sets it up again. Audited. Resetting a member without it is harmless.",
  tags: ["Admin"],
  security: ADMIN_SECURITY,
  request: { params: memberParams },
  responses: {
    200: {
      description: "The member, two-factor off",
      content: { "application/json": { schema: z.object({ member: memberSchema }) } },
    },
    ...errorResponses(["NOT_FOUND", "ORGANIZATION_NOT_FOUND"], "admin"),
  },
});

/** What this operation answers, for its callers and tests. */
export type AdminResetOrganizationMemberTwoFactorResponse = ResponseBody<typeof route, 200>;

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const { organizationId, memberId } = c.req.valid("param");
    const member = await resetTwoFactor(c.get("services"), organizationId, memberId);
    return c.json({ member: memberView(member) }, 200);
  });
}
