import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/http/env";
import { errorResponses } from "../../lib/http/openapi-errors";
import type { ResponseBody } from "../../lib/http/route-types";
import {
  DISCREPANCY_PROBLEMS,
  RECONCILIATION_RUN_STATUSES,
  RECORD_TYPES,
  reconciliationReport,
} from "../../lib/reconciliation/read-reconciliation";
import { ADMIN_SECURITY } from "../tenancy/views";

const discrepancySchema = z.object({
  id: z.string(),
  runId: z.string(),
  organizationId: z.string(),
  recordType: z.enum(RECORD_TYPES),
  recordId: z.string(),
  leg: z.string(),
  chainId: z.number().int(),
  txHash: z.string().nullable(),
  problem: z.enum(DISCREPANCY_PROBLEMS),
  token: z.string().nullable(),
  recorded: z.string().nullable().openapi({ description: "The recorded amount, atomic units." }),
  foundAt: z.string().datetime(),
});

const reportSchema = z.object({
  runs: z.array(
    z.object({
      id: z.string(),
      status: z.enum(RECONCILIATION_RUN_STATUSES),
      coversFrom: z.string().datetime(),
      coversTo: z.string().datetime(),
      recordsChecked: z.number().int(),
      discrepanciesFound: z.number().int(),
      startedAt: z.string().datetime(),
      finishedAt: z.string().datetime().nullable(),
    }),
  ),
  discrepancies: z.array(discrepancySchema),
});

export const route = createRoute({
  method: "get",
  path: "/admin/reconciliation",
  operationId: "adminGetReconciliation",
  summary: "The latest daily reconciliations and every open discrepancy",
  description:
    "Each run re-reads the receipts of the orders, payouts and swaps completed since the last one against the chains (docs/reconciliation.md). A discrepancy is a recorded figure a chain does not show; it flags its record until resolved.",
  tags: ["Admin"],
  security: ADMIN_SECURITY,
  responses: {
    200: {
      description: "The last 10 runs, newest first, and the open discrepancies (at most 200, newest first)",
      content: {
        "application/json": {
          schema: reportSchema,
        },
      },
    },
    ...errorResponses([], "admin"),
  },
});

/** What this operation takes and answers, for its callers and tests. */
export type AdminGetReconciliationResponse = ResponseBody<typeof route, 200>;

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const report = await reconciliationReport(c.get("services"));
    return c.json(report, 200);
  });
}
