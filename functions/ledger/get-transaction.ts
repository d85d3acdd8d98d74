import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/http/env";
import { errorResponses } from "../../lib/http/openapi-errors";
import { partnerContext } from "../../lib/http/partner-context";
import { txHashField } from "../../lib/http/request-fields";
import type { ResponseBody } from "../../lib/http/route-types";
import { findTransaction } from "../../lib/ledger/find-transaction";
import { transactionLookupSchema } from "./schemas";

export const route = createRoute({
  method: "get",
  path: "/api/integrations/transactions/{txHash}",
  operationId: "getTransaction",
  summary: "Which order, payout or swap a transaction belongs to, and which leg",
  description:
    "Finds a transaction hash among the caller's organization's records: a settlement order's legs and the settlement account's payments for it, a payout's deposit and refund, a swap's transaction (docs/ledger.md). Another organization's transaction is TRANSACTION_NOT_FOUND, like an unknown one.",
  tags: ["Ledger"],
  request: {
    params: z.object({
      txHash: txHashField(`0x${"4d".repeat(32)}`),
    }),
  },
  responses: {
    200: {
      description: "The record and the legs the transaction is",
      content: { "application/json": { schema: transactionLookupSchema } },
    },
    ...errorResponses(["TRANSACTION_NOT_FOUND"], "partner"),
  },
});

/** What this operation takes and answers, for its callers and tests. */
export type GetTransactionResponse = ResponseBody<typeof route, 200>;

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const found = await findTransaction(partnerContext(c), c.req.valid("param").txHash);
    return c.json(found, 200);
  });
}
