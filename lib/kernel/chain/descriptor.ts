import { z } from "zod";

export const CHAIN_ROLES = ["source", "intermediate", "destination"] as const;
export type ChainRole = (typeof CHAIN_ROLES)[number];

const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/) as unknown as z.ZodType<`0x${string}`>;

const chainContractsSchema = z.object({
  usdc: address.optional(),
  usdt: address.optional(),
  usdm: address.optional(),
  copm: address.optional(),
  tokenMessenger: address.optional(),
  /**
   * Circle's MessageTransmitterV2 where burns are minted (the intermediate chain, and the source chain
   * for returns): its MessageReceived links a burn's nonce to its mint, and the service relays an
   * attested message through it when the Forwarding Service failed or is late.
   */
  messageTransmitter: address.optional(),
  broker: address.optional(),
  exchangeProvider: address.optional(),
  /** Sandbox only: the aggregator stand-in's router, where a route leaves (a return's too). */
  router: address.optional(),
  /**
   * Sandbox only: where the aggregator stand-in pays routes out (USDm on the destination chain, USDC
   * on the intermediate chain for a return's way back).
   */
  relayReceiver: address.optional(),
  /**
   * Destination only: the PayoutDepositor the user's payout deposit goes through (amount to the
   * provider's deposit address and fee to the fee wallet in one call). A payout refuses to start on a
   * profile without it.
   */
  payoutDepositor: address.optional(),
  /**
   * Destination only: Mento's router (mento-protocol/mento-router), which chains Broker swaps along a
   * path of steps in one transaction (`mentoRouterAbi`). Swaps refuse to start on a profile without it.
   */
  mentoRouter: address.optional(),
  /**
   * Chainalysis's sanctions oracle (`isSanctioned(address)`) on this chain, where Chainalysis deploys
   * it (docs/domain-facts.md, "Sanctions screening"); the sandbox puts a stand-in at the same address.
   */
  sanctionsOracle: address.optional(),
});

const chainDescriptorSchema = z.object({
  role: z.enum(CHAIN_ROLES),
  chainId: z.number().int().positive(),
  name: z.string().min(1),
  rpcUrl: z.string().url().optional(),
  cctpDomain: z.number().int().nonnegative().optional(),
  /** Blocks on top of a transaction before the service treats it as settled on this chain. */
  confirmations: z.number().int().positive(),
  /**
   * Source chains: Circle's typical time from a burn on this chain to its attestation, in seconds,
   * per finality threshold (docs/domain-facts.md, "Source chains"). Without `fastSeconds` Circle
   * offers no Fast Transfer from the chain (its Standard is already fast) and burns go Standard.
   */
  attestation: z
    .object({
      standardSeconds: z.number().int().positive(),
      fastSeconds: z.number().int().positive().optional(),
    })
    .optional(),
  contracts: chainContractsSchema,
  exchanges: z
    .array(
      z.object({ exchangeId: z.string().regex(/^0x[0-9a-fA-F]{64}$/), tokens: z.tuple([address, address]) }),
    )
    .optional(),
});
export type ChainDescriptor = z.infer<typeof chainDescriptorSchema>;

/** What `npm run dev` and the tests hand the worker about the chains they started. */
export const sandboxNetworkSchema = z.object({ chains: z.array(chainDescriptorSchema).min(1) });
