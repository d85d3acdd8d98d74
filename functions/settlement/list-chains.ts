import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/http/env";
import { errorResponses } from "../../lib/http/openapi-errors";
import { partnerContext } from "../../lib/http/partner-context";
import type { ResponseBody } from "../../lib/http/route-types";
import { listSourceChains } from "../../lib/settlement";

const seconds = (what: string) =>
  z
    .object({
      standard: z.number().int().nullable(),
      fast: z
        .number()
        .int()
        .nullable()
        .openapi({ description: "Null where Circle offers no Fast Transfer from the chain." }),
    })
    .openapi({ description: what });

export const sourceChainSchema = z
  .object({
    chainId: z.number().int().openapi({ example: 42161 }),
    name: z.string().openapi({
      description: "What `sourceChain` may say instead of the id (any case).",
      example: "Arbitrum One",
    }),
    cctpDomain: z.number().int().openapi({ description: "Circle's CCTP domain of the chain.", example: 3 }),
    isDefault: z
      .boolean()
      .openapi({ description: "The chain the organization's quotes use when they name none." }),
    method: z.enum(["cctp_burn", "usdc_transfer"]).openapi({
      description:
        "How the USDC leaves: a CCTP burn (the plan's approve and depositForBurnWithHook), or on the intermediate chain one transfer to the settlement account carrying the order's commitment (no Circle fee).",
    }),
    usdc: z
      .string()
      .openapi({ description: "Circle's USDC on the chain: what the burn plan approves and burns." }),
    confirmations: z
      .number()
      .int()
      .openapi({ description: "Blocks the service waits on a burn there before accepting it." }),
    transferSpeeds: z.array(z.enum(["standard", "fast"])).openapi({
      description:
        "Circle's transfer speeds from the chain; an organization on Fast burns Standard where Fast is not offered.",
    }),
    typicalSecondsToAttestation: seconds(
      "Circle's typical time from the burn to its attestation, per speed.",
    ),
    typicalSecondsToDelivered: seconds(
      "A typical time from the burn to DELIVERED, per speed: Circle's typical attestation time plus the median the service measured after it over the last 24 hours' deliveries (the status page's figures), or the profile's estimate before any delivery. Not a promise.",
    ),
    minSendUsdc: z.string().openapi({ example: "10" }),
    maxSendUsdc: z.string().openapi({ example: "1000" }),
  })
  .openapi("SettlementSourceChain");

export const route = createRoute({
  method: "get",
  path: "/api/integrations/settlements/chains",
  operationId: "listSettlementSourceChains",
  summary: "The chains a settlement's USDC may leave",
  description:
    "Every source chain this deployment serves, the organization's default first: name one in a quote's `sourceChain` by its chain id or name.",
  tags: ["Settlement"],
  responses: {
    200: {
      description: "The source chains",
      content: { "application/json": { schema: z.object({ data: z.array(sourceChainSchema) }) } },
    },
    ...errorResponses([], "partner"),
  },
});

/** What this operation answers, for its callers and tests. */
export type ListSettlementSourceChainsResponse = ResponseBody<typeof route, 200>;

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => c.json({ data: await listSourceChains(partnerContext(c)) }, 200));
}
