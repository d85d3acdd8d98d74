import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/http/env";
import { errorResponses } from "../../lib/http/openapi-errors";
import { partnerContext } from "../../lib/http/partner-context";
import type { RequestQuery, ResponseBody } from "../../lib/http/route-types";
import { statementCsv, statementPage } from "../../lib/ledger/statement-views";
import { statementQuery, statementSchema } from "./schemas";

export const route = createRoute({
  method: "get",
  path: "/api/integrations/statements",
  operationId: "getStatement",
  summary: "Every money movement of the organization in a period, with running totals per token",
  description:
    "The movements of the receipts of the organization's settlement orders, payouts and swaps dated in [from, to), oldest first, each with the running total of its token and chain (docs/ledger.md). `format=json` answers a page (`cursor`, `limit`); `format=csv` streams the whole period, ending with one `total` row per token and chain.",
  tags: ["Ledger"],
  request: { query: statementQuery },
  responses: {
    200: {
      description: "The statement: a JSON page, or the whole period as CSV",
      headers: {
        "Content-Disposition": {
          description:
            'With `format=csv` only: `attachment; filename="statement-<from>-<to>.csv"` (the period\'s UTC dates).',
          required: false,
          schema: { type: "string" },
        },
      },
      content: {
        "application/json": { schema: statementSchema },
        "text/csv": { schema: z.string().openapi({ format: "binary" }) },
      },
    },
    ...errorResponses([], "partner"),
  },
});

/** What this operation takes and answers, for its callers and tests. */
export type GetStatementQuery = RequestQuery<typeof route>;
export type GetStatementResponse = ResponseBody<typeof route, 200>;

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const query = c.req.valid("query");
    const period = { from: new Date(query.from), to: new Date(query.to) };
    if (query.format === "csv") {
      const name = `statement-${period.from.toISOString().slice(0, 10)}-${period.to.toISOString().slice(0, 10)}.csv`;
      // Reads only, each a query of its own: the stream goes on after the request's session is released.
      return c.body(statementCsv(partnerContext(c), period), 200, {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="${name}"`,
        "cache-control": "no-store",
      });
    }
    const page = await statementPage(partnerContext(c), {
      ...period,
      cursor: query.cursor,
      limit: query.limit,
    });
    return c.json(page, 200);
  });
}
