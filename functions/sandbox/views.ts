import { z } from "@hono/zod-openapi";

const address = z.string().openapi({ example: "0x5FbDB2315678afecb367f032d93F642f64180aa3" });

export const sandboxChainSchema = z
  .object({
    role: z.enum(["source", "intermediate", "destination"]),
    chainId: z.number().int(),
    name: z.string(),
    rpcUrl: z.string(),
    cctpDomain: z.number().int().optional(),
    confirmations: z.number().int(),
    contracts: z.object({
      usdc: address.optional(),
      usdt: address.optional(),
      usdm: address.optional(),
      copm: address.optional(),
      tokenMessenger: address.optional(),
      broker: address.optional(),
      exchangeProvider: address.optional(),
      router: address.optional(),
    }),
    exchanges: z
      .array(z.object({ exchangeId: z.string(), tokens: z.tuple([z.string(), z.string()]) }))
      .optional()
      .openapi({
        description: "Mento-style exchanges on the broker: pass exchangeProvider and exchangeId to swapIn.",
      }),
  })
  .openapi("SandboxChain");
