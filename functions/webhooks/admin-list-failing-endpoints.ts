import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/http/env";
import { errorResponses } from "../../lib/http/openapi-errors";
import type { ResponseBody } from "../../lib/http/route-types";
import { failingEndpoints } from "../../lib/webhooks/sweep-hooks";
import { ADMIN_SECURITY } from "../tenancy/views";
import { endpointSchema } from "./schemas";

export const route = createRoute({
  method: "get",
  path: "/admin/webhooks/failing-endpoints",
  operationId: "adminListFailingWebhookEndpoints",
  summary: "Webhook endpoints of every organization that are failing, flagged or disabled",
  description:
    "Endpoints whose last attempt failed (`consecutiveFailures` > 0), that were flagged because a delivery ran out of attempts, or that a 410 Gone disabled; most failures first.",
  tags: ["Admin"],
  security: ADMIN_SECURITY,
  responses: {
    200: {
      description: "The failing endpoints",
      content: {
        "application/json": {
          schema: z.object({
            endpoints: z.array(
              endpointSchema.extend({ organizationId: z.string(), integrationId: z.string() }),
            ),
          }),
        },
      },
    },
    ...errorResponses([], "admin"),
  },
});

/** What this operation takes and answers, for its callers and tests. */
export type AdminListFailingWebhookEndpointsResponse = ResponseBody<typeof route, 200>;

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    return c.json({ endpoints: await failingEndpoints(c.get("services")) }, 200);
  });
}
