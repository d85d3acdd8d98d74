import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/http/env";
import { errorResponses } from "../../lib/http/openapi-errors";
import { operatorReason } from "../../lib/http/request-fields";
import type { RequestBody, ResponseBody } from "../../lib/http/route-types";
import { returnUnclaimedMint } from "../../lib/settlement";
import { ADMIN_SECURITY } from "../tenancy/views";
import { unclaimedMintSchema } from "./schemas";

export const route = createRoute({
  method: "post",
  path: "/admin/settlements/unclaimed/{mintId}/return",
  operationId: "adminReturnUnclaimedMint",
  summary: "Return a mint no order claims to its depositor on its source chain",
  description:
    "Burns what the mint gave the settlement account back over CCTP (Standard finality) to the address that burned it, on the chain it came from; Circle's fee comes out of it (`returnFeeUsdc` in the list says at most how much). Status `return_requested`, then `returning` once the burn is mined, then `returned` once the mint to the depositor is read on the source chain; the service relays the message itself when Circle's forward fails or is late. Refused with MINT_NOT_RETURNABLE while an order claims the mint or may still (its commitment, not attested yet), or when its source chain is not served. Asking again answers the mint as it stands.",
  tags: ["Admin"],
  security: ADMIN_SECURITY,
  request: {
    params: z.object({ mintId: z.string().openapi({ param: { name: "mintId", in: "path" } }) }),
    body: {
      required: true,
      content: {
        "application/json": {
          schema: z
            .object({
              reason: operatorReason("Why, for the record (the depositor's ticket, say)."),
            })
            .strict(),
        },
      },
    },
  },
  responses: {
    202: {
      description: "Asked; the return is under way (or the mint as it stands, when asked before)",
      content: { "application/json": { schema: unclaimedMintSchema } },
    },
    ...errorResponses(
      ["UNCLAIMED_MINT_NOT_FOUND", "MINT_NOT_RETURNABLE", "UNSUPPORTED_MEDIA_TYPE", "PAYLOAD_TOO_LARGE"],
      "admin",
    ),
  },
});

/** What this operation takes and answers, for its callers and tests. */
export type AdminReturnUnclaimedMintRequest = RequestBody<typeof route>;
export type AdminReturnUnclaimedMintResponse = ResponseBody<typeof route, 202>;

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) =>
    c.json(
      await returnUnclaimedMint(c.get("services"), c.req.valid("param").mintId, c.req.valid("json").reason),
      202,
    ),
  );
}
