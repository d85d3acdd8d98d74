import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { allowAddress } from "../../lib/compliance";
import type { AppEnv } from "../../lib/http/env";
import { errorResponses } from "../../lib/http/openapi-errors";
import type { ResponseBody } from "../../lib/http/route-types";
import { parseEvmAddress } from "../../lib/kernel/chain/address";
import { ADMIN_SECURITY } from "../tenancy/views";
import { deniedAddressSchema, deniedAddressView, evmAddressSchema, reasonSchema } from "./views";

export const route = createRoute({
  method: "delete",
  path: "/admin/compliance/denied-addresses/{address}",
  operationId: "adminAllowAddress",
  summary: "Lift an address's deny-list listing",
  description:
    "The listing stays in the list's history with who lifted it, when and `reason`. The sanctions oracle is not the service's to lift: an address it lists stays refused. An address not listed is 404 NOT_FOUND.",
  tags: ["Admin"],
  security: ADMIN_SECURITY,
  request: {
    params: z.object({ address: evmAddressSchema.openapi({ param: { name: "address", in: "path" } }) }),
    query: z.object({ reason: reasonSchema }).strict(),
  },
  responses: {
    200: {
      description: "The lifted listing",
      content: { "application/json": { schema: z.object({ deniedAddress: deniedAddressSchema }) } },
    },
    ...errorResponses(["NOT_FOUND"], "admin"),
  },
});

/** What this operation answers, for its callers and tests. */
export type AdminAllowAddressResponse = ResponseBody<typeof route, 200>;

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const lifted = await allowAddress(c.get("services"), {
      address: parseEvmAddress(c.req.valid("param").address) as `0x${string}`,
      reason: c.req.valid("query").reason,
    });
    return c.json({ deniedAddress: deniedAddressView(lifted) }, 200);
  });
}
