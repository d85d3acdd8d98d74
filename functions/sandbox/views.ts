import { z } from "@hono/zod-openapi";
import { CHAIN_ROLES } from "../../lib/kernel/chain/descriptor";

const address = (description: string) =>
  z.string().openapi({ description, example: "0x5FbDB2315678afecb367f032d93F642f64180aa3" });

/**
 * A sandbox chain as `GET /api/integrations/sandbox/network` answers it: every contract the local
 * chains carry, each a public address anyone with the RPC URL reads (docs/sandbox.md says why each is
 * given).
 */
export const sandboxChainSchema = z
  .object({
    role: z.enum(CHAIN_ROLES),
    chainId: z.number().int(),
    name: z.string(),
    rpcUrl: z.string(),
    cctpDomain: z.number().int().optional(),
    confirmations: z.number().int(),
    attestation: z
      .object({ standardSeconds: z.number().int(), fastSeconds: z.number().int().optional() })
      .optional()
      .openapi({
        description:
          "Source chains: the attestation times the service is told, Standard and (where offered) Fast, in seconds.",
      }),
    contracts: z.object({
      usdc: address("USDC (6 decimals).").optional(),
      usdt: address("USDT (6 decimals).").optional(),
      usdm: address("USDm (18 decimals).").optional(),
      copm: address("COPm (18 decimals).").optional(),
      tokenMessenger: address("CCTP v2's TokenMessengerV2: where a burn is sent.").optional(),
      messageTransmitter: address(
        "CCTP v2's MessageTransmitterV2: where a burn is minted (`MessageReceived` ties the mint to the burn's nonce).",
      ).optional(),
      broker: address("Mento's Broker: `swapIn` for a one-hop swap.").optional(),
      exchangeProvider: address("Mento's BiPoolManager, the exchange provider of every pool.").optional(),
      router: address(
        "The aggregator stand-in's router, where a route leaves (`RouteRequested`).",
      ).optional(),
      relayReceiver: address(
        "The aggregator stand-in's relay receiver, which pays a route out on the other chain (`RouteFulfilled`).",
      ).optional(),
      mentoRouter: address("Mento's router: the target of a prepared swap of more than one hop.").optional(),
      payoutDepositor: address(
        "The PayoutDepositor a payout's deposit goes through (amount to the provider, fee to the fee wallet).",
      ).optional(),
      sanctionsOracle: address(
        "The stand-in of Chainalysis's sanctions oracle, at Chainalysis's address (`POST /api/integrations/sandbox/sanctions` lists on it).",
      ).optional(),
    }),
    exchanges: z
      .array(
        z.object({
          exchangeId: z.string(),
          tokens: z
            .array(z.string())
            .length(2)
            .openapi({ description: "The exchange's two assets, as the pool lists them." }),
        }),
      )
      .optional()
      .openapi({
        description: "Mento-style exchanges on the broker: pass exchangeProvider and exchangeId to swapIn.",
      }),
  })
  .openapi("SandboxChain");
