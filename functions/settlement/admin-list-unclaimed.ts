import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/http/env";
import { errorResponses } from "../../lib/http/openapi-errors";
import type { ResponseBody } from "../../lib/http/route-types";
import { listUnclaimedMints } from "../../lib/settlement";
import { ADMIN_SECURITY } from "../tenancy/views";
import { unclaimedMintSchema } from "./schemas";

export const route = createRoute({
  method: "get",
  path: "/admin/settlements/unclaimed",
  operationId: "adminListUnclaimedMints",
  summary: "Mints to the settlement account that no order claims, newest first",
  description:
    "Every CCTP mint to the settlement account on the intermediate chain whose nonce no order's attestation names (wrong hook data, an order that does not exist, the extra burn of a smart wallet's batch), found by each sweep from MessageReceived, the newest 500. Each says whether it can be returned to its depositor now and the most Circle would take for that (`returnFeeUsdc`); one carrying the commitment of an order not attested yet is not returnable (`claimableBy`), since that order may still claim it (docs/settlement.md, Unclaimed mints).",
  tags: ["Admin"],
  security: ADMIN_SECURITY,
  responses: {
    200: {
      description: "The unclaimed mints",
      content: { "application/json": { schema: z.object({ mints: z.array(unclaimedMintSchema) }) } },
    },
    ...errorResponses([], "admin"),
  },
});

/** What this operation takes and answers, for its callers and tests. */
export type AdminListUnclaimedMintsResponse = ResponseBody<typeof route, 200>;

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => c.json({ mints: await listUnclaimedMints(c.get("services")) }, 200));
}
