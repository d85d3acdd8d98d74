import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/http/env";
import { errorResponses } from "../../lib/http/openapi-errors";
import { amountRule, constantUnits, parseAmount } from "../../lib/kernel/money";
import { movementsReport } from "../../lib/ledger/movements-report";
import { ADMIN_SECURITY, organizationIdParam } from "../tenancy/views";

export const route = createRoute({
  method: "get",
  path: "/admin/organizations/{organizationId}/compliance/movements",
  operationId: "adminMovementsReport",
  summary: "An organization's movements of a month above an amount, as CSV",
  description:
    "The movements of the organization's statement dated in the UTC month `month` (YYYY-MM), in the statement's CSV format (docs/ledger.md), of the records worth at least `minUsd` US dollars: a settlement by its principal, a payout by its dollar value, a swap by its dollar side. Ends with one `total` row per token and chain of the rows shown. What a reporting obligation asks the operator to file (docs/compliance.md, Movements report).",
  tags: ["Admin"],
  security: ADMIN_SECURITY,
  request: {
    params: organizationIdParam,
    query: z
      .object({
        month: z.string().openapi({ example: "2026-11" }),
        minUsd: z
          .string()
          .refine((text) => parseAmount(text, 6).ok, amountRule(6))
          .openapi({ description: "US dollars, decimal.", example: "10000" }),
      })
      .strict(),
  },
  responses: {
    200: {
      description: "The report, as CSV",
      headers: {
        "Content-Disposition": {
          description: '`attachment; filename="movements-<organizationId>-<month>.csv"`',
          required: true,
          schema: { type: "string" },
        },
      },
      content: { "text/csv": { schema: z.string().openapi({ format: "binary" }) } },
    },
    ...errorResponses(["ORGANIZATION_NOT_FOUND"], "admin"),
  },
});

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const { month, minUsd } = c.req.valid("query");
    const report = await movementsReport(c.get("services"), c.req.valid("param").organizationId, {
      month,
      minUsd: constantUnits(minUsd, 6),
    });
    return c.body(report.csv, 200, {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${report.fileName}"`,
      "cache-control": "no-store",
    });
  });
}
