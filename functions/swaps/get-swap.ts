import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/http/env";
import { errorResponses } from "../../lib/http/openapi-errors";
import { partnerContext } from "../../lib/http/partner-context";
import type { ResponseBody } from "../../lib/http/route-types";
import { ownIntent } from "../../lib/swaps/confirm-swap";
import { swapView } from "../../lib/swaps/swap-view";
import { swapSchema } from "./schemas";

export const route = createRoute({
  method: "get",
  path: "/api/integrations/swaps/{intentId}",
  operationId: "getSwap",
  summary: "A swap intent, prepared or confirmed",
  description:
    "A swap intent of the caller's organization, as prepare answered it and, once confirmed, with the transaction and the amounts its logs show. Another organization's intent answers as a missing one.",
  tags: ["Swaps"],
  request: { params: z.object({ intentId: z.string().min(1).max(100) }) },
  responses: {
    200: { description: "The swap", content: { "application/json": { schema: swapSchema } } },
    ...errorResponses(["SWAP_NOT_FOUND"], "partner"),
  },
});

/** What this operation takes and answers, for its callers and tests. */
export type GetSwapResponse = ResponseBody<typeof route, 200>;

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const intent = await ownIntent(partnerContext(c), c.req.valid("param").intentId);
    return c.json(swapView(intent), 200);
  });
}
