import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/http/env";
import { errorResponses } from "../../lib/http/openapi-errors";
import type { RequestBody, ResponseBody } from "../../lib/http/route-types";
import { SECRET_HEADERS } from "../../lib/http/security-headers";
import { createOrganization } from "../../lib/tenancy/organizations";
import {
  ADMIN_SECURITY,
  integrationSchema,
  integrationView,
  issuedKeySchema,
  organizationSchema,
  organizationView,
} from "./views";

export const route = createRoute({
  method: "post",
  path: "/admin/organizations",
  operationId: "adminCreateOrganization",
  summary: "Create an organization with its first integration and API key",
  description:
    "The organization, its first integration and that integration's first API key, in one step. The key is shown in this answer only; only its hash and visible start are stored.",
  tags: ["Admin"],
  security: ADMIN_SECURITY,
  request: {
    body: {
      required: true,
      content: {
        "application/json": {
          schema: z.object({ name: z.string().trim().min(1).max(200) }).strict(),
        },
      },
    },
  },
  responses: {
    201: {
      description: "Created. `apiKey` is shown only here.",
      content: {
        "application/json": {
          schema: z.object({
            organization: organizationSchema,
            integration: integrationSchema,
            apiKey: issuedKeySchema,
          }),
        },
      },
    },
    ...errorResponses(["PAYLOAD_TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE"], "admin"),
  },
});

/** What this operation takes and answers, for its callers and tests. */
export type AdminCreateOrganizationRequest = RequestBody<typeof route>;
export type AdminCreateOrganizationResponse = ResponseBody<typeof route, 201>;

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const created = await createOrganization(c.get("services"), c.req.valid("json"));
    return c.json(
      {
        organization: organizationView(created.organization),
        integration: integrationView(created.integration),
        apiKey: created.key.apiKey,
      },
      201,
      SECRET_HEADERS,
    );
  });
}
