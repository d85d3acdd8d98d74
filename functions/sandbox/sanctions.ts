import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/http/env";
import { BODY_ERRORS, errorResponses } from "../../lib/http/openapi-errors";
import type { RequestBody, ResponseBody } from "../../lib/http/route-types";
import { EVM_ADDRESS_RULE, parseEvmAddress } from "../../lib/kernel/chain/address";
import { setSandboxSanction } from "../../lib/sandbox/sanctions";

const sanctionRequestSchema = z
  .object({
    address: z
      .string()
      .refine((value) => parseEvmAddress(value) !== undefined, EVM_ADDRESS_RULE)
      .openapi({ example: "0x90F79bf6EB2c4f870365E785982E1f101E93b906" }),
    listed: z.boolean().optional().openapi({ description: "false unlists the address; true by default." }),
  })
  .strict()
  .openapi("SandboxSanctionRequest");

const sanctionResultSchema = z
  .object({
    address: z.string().openapi({ description: "Checksummed." }),
    listed: z.boolean(),
    chains: z.array(z.object({ chainId: z.number().int(), oracle: z.string(), txHash: z.string() })),
  })
  .openapi("SandboxSanctionResult");

export const route = createRoute({
  method: "post",
  path: "/api/integrations/sandbox/sanctions",
  operationId: "sandboxSanction",
  summary: "List an address on the sandbox's sanctions oracle (mock mode only)",
  description:
    "Real transactions on every local chain: the sandbox operator calls `addToSanctionsList` (or `removeFromSanctionsList` with `listed: false`) on the stand-in of Chainalysis's oracle, at the oracle's own address. Every entry point then refuses the address with 403 SANCTIONED_ADDRESS (docs/compliance.md). Answers 404 in live mode.",
  tags: ["Sandbox"],
  request: { body: { required: true, content: { "application/json": { schema: sanctionRequestSchema } } } },
  responses: {
    200: {
      description: "Listed or unlisted",
      content: { "application/json": { schema: sanctionResultSchema } },
    },
    ...errorResponses(["NOT_FOUND", "PROVIDER_UNAVAILABLE", ...BODY_ERRORS], "partner"),
  },
});

/** What this operation takes and answers, for its callers and tests. */
export type SandboxSanctionRequest = RequestBody<typeof route>;
export type SandboxSanctionResponse = ResponseBody<typeof route, 200>;

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) =>
    c.json(await setSandboxSanction(c.get("services"), c.req.valid("json")), 200),
  );
}
