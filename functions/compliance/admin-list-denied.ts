import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { listDeniedAddresses } from "../../lib/compliance";
import type { AppEnv } from "../../lib/http/env";
import { errorResponses } from "../../lib/http/openapi-errors";
import type { ResponseBody } from "../../lib/http/route-types";
import { ADMIN_SECURITY } from "../tenancy/views";
import { deniedAddressSchema, deniedAddressView } from "./views";

export const route = createRoute({
  method: "get",
  path: "/admin/compliance/denied-addresses",
  operationId: "adminListDeniedAddresses",
  summary: "The deny list and its history, newest first",
  description:
    "Active listings and lifted ones (with `removedAt`), at most `limit` (default 100, at most 500).",
  tags: ["Admin"],
  security: ADMIN_SECURITY,
  request: { query: z.object({ limit: z.coerce.number().int().min(1).max(500).default(100) }).strict() },
  responses: {
    200: {
      description: "The listings",
      content: { "application/json": { schema: z.object({ data: z.array(deniedAddressSchema) }) } },
    },
    ...errorResponses([], "admin"),
  },
});

/** What this operation answers, for its callers and tests. */
export type AdminListDeniedAddressesResponse = ResponseBody<typeof route, 200>;

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const rows = await listDeniedAddresses(c.get("services"), c.req.valid("query").limit);
    return c.json({ data: rows.map(deniedAddressView) }, 200);
  });
}
