import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/http/env";
import { errorResponses } from "../../lib/http/openapi-errors";
import { pagesConfiguration } from "../../lib/http/pages";
import type { ResponseBody } from "../../lib/http/route-types";
import { operatorHealth } from "../../lib/settlement";
import { ADMIN_SECURITY } from "../tenancy/views";

const wei = z.string().nullable().openapi({ description: "Wei of the chain's native token, decimal text." });

const healthSchema = z.object({
  chains: z.array(
    z.object({
      role: z.string(),
      chainId: z.number().int(),
      name: z.string(),
      account: z.string().nullable().openapi({ description: "The settlement account." }),
      balance: wei,
      threshold: wei.openapi({
        description:
          "Below this the balance is low: three days of the last week's daily gas spend, or twenty payments of 200,000 gas at today's price, whichever is more.",
      }),
      dailyGasSpend: wei.openapi({
        description:
          "What the account's mined transactions on the chain cost a day over the last week (gas × max fee).",
      }),
      balanceStatus: z.enum(["ok", "low", "unknown"]),
      headBlock: z.number().int().nullable(),
      headAgeSeconds: z
        .number()
        .int()
        .nullable()
        .openapi({ description: "Seconds since the head block's time." }),
      rpc: z.enum(["up", "down"]),
    }),
  ),
  vendors: z.array(
    z.object({
      vendor: z.string().openapi({ example: "circle-iris" }),
      lastSuccessAt: z.string().datetime().nullable(),
      lastErrorAt: z.string().datetime().nullable(),
      lastError: z.string().nullable(),
      blockedUntil: z.string().datetime().nullable().openapi({
        description: "While the vendor asks every caller to stay away (a 429): until when.",
      }),
    }),
  ),
  pages: z
    .object({
      status: z.enum(["same", "differs", "unreachable", "unbound"]),
      differing: z
        .array(z.string())
        .openapi({ description: "The variables whose values differ; never a value." }),
    })
    .openapi({
      description:
        "Whether the pages worker (the dashboard, the miniapp) runs on this worker's variables and secrets, compared by fingerprints under a fresh nonce: `same`, `differs`, `unreachable`, or `unbound` without the PAGES binding (docs/operations.md).",
    }),
});

export const route = createRoute({
  method: "get",
  path: "/admin/health",
  operationId: "adminGetHealth",
  summary: "What the operator watches: gas, chains, vendors and the pages worker's configuration",
  description:
    "Per chain, the settlement account's native balance against a threshold from its recent gas use, and the head block's age; per polled vendor (Circle's Iris, LI.FI), its last success, last error and any block it imposes; whether the pages worker's variables are this worker's (docs/operations.md).",
  tags: ["Admin"],
  security: ADMIN_SECURITY,
  responses: {
    200: {
      description: "The settlement account per chain and the vendors",
      content: { "application/json": { schema: healthSchema } },
    },
    ...errorResponses([], "admin"),
  },
});

/** What this operation takes and answers, for its callers and tests. */
export type AdminGetHealthResponse = ResponseBody<typeof route, 200>;

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const [health, pages] = await Promise.all([
      operatorHealth(c.get("services")),
      pagesConfiguration(c.get("deps").pages, c.get("services").config),
    ]);
    return c.json({ ...health, pages }, 200);
  });
}
