import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/http/env";
import { openapiBreb } from "../../lib/http/miniapp";
import { errorResponses } from "../../lib/http/openapi-errors";
import { partnerContext } from "../../lib/http/partner-context";
import type { RequestQuery, ResponseBody } from "../../lib/http/route-types";
import { issueCode } from "../../lib/http/validation";
import { BREB_TOKENS } from "../../lib/payouts/breb-provider";
import { quotePayout } from "../../lib/payouts/quote";
import { payoutQuoteSchema } from "./schemas";

export const route = createRoute({
  method: "get",
  path: "/api/integrations/breb/quote",
  operationId: "quoteBrebPayout",
  summary: "Price a BRE-B payout",
  description:
    "What the user pays, in USDC or COPm, for the recipient to get exactly `destinationCop` whole pesos: the provider's amount (so that after its 0.5% the recipient gets destinationCop) plus the service's 1% fee on it, both rounded up. The provider's rate is reused for BREB_RATE_CACHE_SECONDS (`cached`). The quote lives BREB_QUOTE_SECONDS (120 by default).",
  tags: ["BRE-B payouts"],
  request: {
    query: z.object({
      destinationCop: z
        .string()
        .refine((value) => /^[1-9]\d*$/.test(value), {
          message: "must be whole pesos: digits only, no leading zero",
          params: issueCode("INVALID_AMOUNT"),
        })
        .openapi({
          description: "Whole pesos the recipient receives: 4,000 to BREB_MAX_COP.",
          example: "100000",
        }),
      fromToken: z.enum(BREB_TOKENS).openapi({ description: "The token the user pays with." }),
    }),
  },
  responses: {
    200: { description: "The quote", content: { "application/json": { schema: payoutQuoteSchema } } },
    ...errorResponses(
      ["INVALID_AMOUNT", "BELOW_MINIMUM", "ABOVE_MAXIMUM", "PROVIDER_UNAVAILABLE"],
      "partner",
    ),
  },
});

/** What this operation takes and answers, for its callers and tests. */
export type QuoteBrebPayoutQuery = RequestQuery<typeof route>;
export type QuoteBrebPayoutResponse = ResponseBody<typeof route, 200>;

export function register(app: OpenAPIHono<AppEnv>) {
  openapiBreb(app, route, async (c) => {
    const { destinationCop, fromToken } = c.req.valid("query");
    return c.json(
      await quotePayout(partnerContext(c), { destinationCop: BigInt(destinationCop), token: fromToken }),
      200,
    );
  });
}
