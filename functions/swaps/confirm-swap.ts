import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/http/env";
import { BODY_ERRORS, errorResponses } from "../../lib/http/openapi-errors";
import { partnerContext } from "../../lib/http/partner-context";
import type { RequestBody, ResponseBody } from "../../lib/http/route-types";
import { confirmSwap } from "../../lib/swaps/confirm-swap";
import { swapSchema } from "./schemas";

export const route = createRoute({
  method: "post",
  path: "/api/integrations/swaps/{intentId}/confirm",
  operationId: "confirmSwap",
  summary: "Confirm a prepared swap by its transaction hash",
  description:
    "The receipt is read on the chain: successful, from the wallet, to the prepared target (the router, or the broker for one hop), with exactly the prepared calldata, which ends with this intent's 32-byte commitment (keccak256(abi.encode(\"copm-swap-intent/v1\", intentId))), so a look-alike intent never claims another's transaction; mined by the intent's expiresAt (else SWAP_EXPIRED; the confirm itself may come later); the wallet paying amountIn and receiving at least minAmountOut; the amounts swapped are recorded from the logs. INVALID_SWAP names the failed check of a mined transaction; a hash the chain does not know yet, an unmined or an under-confirmed one is SWAP_PENDING_CONFIRMATIONS (retryable, with Retry-After). A hash confirms one swap (TX_ALREADY_USED); the same hash again answers the recorded swap.",
  tags: ["Swaps"],
  request: {
    params: z.object({ intentId: z.string().min(1).max(100) }),
    body: {
      required: true,
      content: {
        "application/json": {
          schema: z
            .object({ txHash: z.string().regex(/^0x[a-fA-F0-9]{64}$/, "must be 0x and 64 hex digits") })
            .strict(),
        },
      },
    },
  },
  responses: {
    200: { description: "The confirmed swap", content: { "application/json": { schema: swapSchema } } },
    ...errorResponses(
      [
        "SWAP_NOT_FOUND",
        "INVALID_SWAP",
        "SWAP_EXPIRED",
        "SWAP_PENDING_CONFIRMATIONS",
        "TX_ALREADY_USED",
        "ROUTE_UNAVAILABLE",
        "PROVIDER_UNAVAILABLE",
        ...BODY_ERRORS,
      ],
      "partner",
    ),
  },
});

/** What this operation takes and answers, for its callers and tests. */
export type ConfirmSwapRequest = RequestBody<typeof route>;
export type ConfirmSwapResponse = ResponseBody<typeof route, 200>;

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const swap = await confirmSwap(
      partnerContext(c),
      c.req.valid("param").intentId,
      c.req.valid("json").txHash as `0x${string}`,
    );
    return c.json(swap, 200);
  });
}
