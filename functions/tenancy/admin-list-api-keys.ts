import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/http/env";
import { errorResponses } from "../../lib/http/openapi-errors";
import type { RequestQuery, ResponseBody } from "../../lib/http/route-types";
import { hasPrefix } from "../../lib/kernel/ids";
import { KEYS_DEFAULT_LIMIT, KEYS_PAGE_LIMIT, listApiKeys } from "../../lib/tenancy/integrations";
import { ADMIN_SECURITY, apiKeySchema, apiKeyView, integrationIdParam } from "./views";

export const route = createRoute({
  method: "get",
  path: "/admin/integrations/{integrationId}/keys",
  operationId: "adminListApiKeys",
  summary: "An integration's API keys, newest first (never the keys themselves)",
  description:
    "A page at a time: `limit` up to 500 (default 100); `cursor` is the previous page's `nextCursor` (null on the last page).",
  tags: ["Admin"],
  security: ADMIN_SECURITY,
  request: {
    params: integrationIdParam,
    query: z.object({
      limit: z.coerce.number().int().min(1).max(KEYS_PAGE_LIMIT).default(KEYS_DEFAULT_LIMIT),
      cursor: z
        .string()
        .refine((value) => hasPrefix(value, "key"), "a cursor, as nextCursor gives it")
        .optional(),
    }),
  },
  responses: {
    200: {
      description: "A page of keys",
      content: {
        "application/json": {
          schema: z.object({ keys: z.array(apiKeySchema), nextCursor: z.string().nullable() }),
        },
      },
    },
    ...errorResponses(["INTEGRATION_NOT_FOUND"], "admin"),
  },
});

/** What this operation takes and answers, for its callers and tests. */
export type AdminListApiKeysQuery = RequestQuery<typeof route>;
export type AdminListApiKeysResponse = ResponseBody<typeof route, 200>;

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const { keys, nextCursor } = await listApiKeys(
      c.get("services"),
      c.req.valid("param").integrationId,
      c.req.valid("query"),
    );
    return c.json({ keys: keys.map(apiKeyView), nextCursor }, 200);
  });
}
