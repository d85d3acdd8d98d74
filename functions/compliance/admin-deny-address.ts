import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { denyAddress } from "../../lib/compliance";
import type { AppEnv } from "../../lib/http/env";
import { BODY_ERRORS, errorResponses } from "../../lib/http/openapi-errors";
import type { RequestBody, ResponseBody } from "../../lib/http/route-types";
import { parseEvmAddress } from "../../lib/kernel/chain/address";
import { ADMIN_SECURITY } from "../tenancy/views";
import { deniedAddressSchema, deniedAddressView, evmAddressSchema, reasonSchema } from "./views";

const body = { "application/json": { schema: z.object({ deniedAddress: deniedAddressSchema }) } };

export const route = createRoute({
  method: "post",
  path: "/admin/compliance/denied-addresses",
  operationId: "adminDenyAddress",
  summary: "Put an address on the deny list",
  description:
    "From then on every entry point refuses the address with 403 SANCTIONED_ADDRESS, as if the sanctions oracle listed it (docs/compliance.md). Listing an address already listed answers that listing, 200, unchanged.",
  tags: ["Admin"],
  security: ADMIN_SECURITY,
  request: {
    body: {
      required: true,
      content: {
        "application/json": {
          schema: z.object({ address: evmAddressSchema, reason: reasonSchema }).strict(),
        },
      },
    },
  },
  responses: {
    200: { description: "Already listed: the listing", content: body },
    201: { description: "Listed", content: body },
    ...errorResponses([...BODY_ERRORS], "admin"),
  },
});

/** What this operation takes and answers, for its callers and tests. */
export type AdminDenyAddressRequest = RequestBody<typeof route>;
export type AdminDenyAddressResponse = ResponseBody<typeof route, 201>;

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const { address, reason } = c.req.valid("json");
    const { listing, created } = await denyAddress(c.get("services"), {
      address: parseEvmAddress(address) as `0x${string}`,
      reason,
    });
    const answer = { deniedAddress: deniedAddressView(listing) };
    return created ? c.json(answer, 201) : c.json(answer, 200);
  });
}
