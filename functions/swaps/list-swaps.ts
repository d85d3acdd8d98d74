import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/http/env";
import { errorResponses } from "../../lib/http/openapi-errors";
import { partnerContext } from "../../lib/http/partner-context";
import type { RequestQuery, ResponseBody } from "../../lib/http/route-types";
import { listSwaps } from "../../lib/swaps/list-swaps";
import { listSwapsQuery, swapSchema } from "./schemas";

export const route = createRoute({
  method: "get",
  path: "/api/integrations/swaps",
  operationId: "listSwaps",
  summary: "Confirmed swaps of an integration, for reconciliation",
  description:
    "Oldest confirmation first from `since`; `limit` up to 500 (default 100); `cursor` is the previous page's `nextCursor` (null on the last page). The key must belong to `integration_id`: any other id answers INTEGRATION_NOT_FOUND, whether it exists or not. Prepared intents are never listed.",
  tags: ["Swaps"],
  request: {
    query: listSwapsQuery,
  },
  responses: {
    200: {
      description: "A page of confirmed swaps",
      content: {
        "application/json": {
          schema: z.object({ swaps: z.array(swapSchema), nextCursor: z.string().nullable() }),
        },
      },
    },
    ...errorResponses(["INTEGRATION_NOT_FOUND"], "partner"),
  },
});

/** What this operation takes and answers, for its callers and tests. */
export type ListSwapsQuery = RequestQuery<typeof route>;
export type ListSwapsResponse = ResponseBody<typeof route, 200>;

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const { integration_id: integrationId, since, ...query } = c.req.valid("query");
    const page = await listSwaps(partnerContext(c), {
      integrationId,
      ...query,
      ...(since ? { since: new Date(since) } : {}),
    });
    return c.json(page as { swaps: z.infer<typeof swapSchema>[]; nextCursor: string | null }, 200);
  });
}
