import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/http/env";
import { errorResponses } from "../../lib/http/openapi-errors";
import type { ResponseBody } from "../../lib/http/route-types";
import { CHAIN_ROLES } from "../../lib/kernel/chain/descriptor";
import { checkHealth } from "../../lib/kernel/health";

const componentCheck = z.object({
  status: z.enum(["up", "down"]),
  latencyMs: z.number().int().nonnegative(),
  detail: z.string().optional(),
});

export const healthReportSchema = z
  .object({
    status: z.enum(["ok", "degraded", "down"]),
    mode: z.enum(["mock", "live"]),
    checks: z.object({
      database: componentCheck,
      jobs: componentCheck,
      chains: z.array(
        componentCheck.extend({
          role: z.enum(CHAIN_ROLES),
          chainId: z.number().int().optional(),
        }),
      ),
    }),
  })
  .openapi("HealthReport");

export const route = createRoute({
  method: "get",
  path: "/health",
  operationId: "getHealth",
  summary: "Service health",
  description:
    "The state of the database, the job queue and each configured chain. No key needed. " +
    "503 when the database is unreachable; a queue or chain outage reports `degraded` with 200.",
  tags: ["Service"],
  security: [],
  responses: {
    200: {
      description: "The service can take requests",
      content: { "application/json": { schema: healthReportSchema } },
    },
    503: {
      description: "The database is unreachable",
      content: { "application/json": { schema: healthReportSchema } },
    },
    ...errorResponses([], "none"),
  },
});

/** What this operation takes and answers, for its callers and tests. */
export type GetHealthResponse = ResponseBody<typeof route, 200>;

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const report = await checkHealth(c.get("services"));
    return report.status === "down" ? c.json(report, 503) : c.json(report, 200);
  });
}
