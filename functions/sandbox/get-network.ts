import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/http/env";
import { errorResponses } from "../../lib/http/openapi-errors";
import type { ResponseBody } from "../../lib/http/route-types";
import { describeSandboxNetwork } from "../../lib/sandbox/network";
import { sandboxChainSchema } from "./views";

export const route = createRoute({
  method: "get",
  path: "/api/integrations/sandbox/network",
  operationId: "getSandboxNetwork",
  summary: "The local chains and their contracts (mock mode only)",
  description:
    "Chain ids, RPC URLs and token and protocol contract addresses of the sandbox network, so an app " +
    "or a test can sign real transactions against it. Answers 404 in live mode.",
  tags: ["Sandbox"],
  responses: {
    200: {
      description: "The sandbox network",
      content: { "application/json": { schema: z.object({ chains: z.array(sandboxChainSchema) }) } },
    },
    ...errorResponses(["NOT_FOUND"], "partner"),
  },
});

/** What this operation takes and answers, for its callers and tests. */
export type GetSandboxNetworkResponse = ResponseBody<typeof route, 200>;

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, (c) => c.json(describeSandboxNetwork(c.get("services")), 200));
}
