import { z } from "zod";

export const CHAIN_ROLES = ["source", "intermediate", "destination"] as const;
export type ChainRole = (typeof CHAIN_ROLES)[number];

const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/) as unknown as z.ZodType<`0x${string}`>;

export const chainContractsSchema = z.object({
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
});
export type ChainContracts = z.infer<typeof chainContractsSchema>;

export const chainDescriptorSchema = z.object({
  role: z.enum(["source", "intermediate", "destination"]),
  chainId: z.number().int().positive(),
  name: z.string().min(1),
  rpcUrl: z.string().url().optional(),
  cctpDomain: z.number().int().nonnegative().optional(),
  /** Blocks on top of a transaction before the service treats it as settled on this chain. */
  confirmations: z.number().int().positive(),
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

/** Circle's TokenMessengerV2 has one address on every EVM mainnet (docs/domain-facts.md). */
const TOKEN_MESSENGER_V2_MAINNET = "0x28b5a0e9C621a5BadaA536219b3a228C8168cf5d";
/** And one on every testnet (developers.circle.com/cctp/references/contract-addresses). */
const TOKEN_MESSENGER_V2_TESTNET = "0x8FE6B999Dc680CcFDD5Bf7EB0974218be2542DAA";
/** Circle's MessageTransmitterV2, likewise one address per network kind (same page). */
const MESSAGE_TRANSMITTER_V2_MAINNET = "0x81D40F21F12A8F0E3252Bccb954D722d4c464B64";
const MESSAGE_TRANSMITTER_V2_TESTNET = "0xE737e5cEBEEBa77EFE34D4aa090756590b1CE275";

/**
 * Real deployments. Mainnet: USDC leaves Arbitrum, CCTP (with the Forwarding Service) mints it on
 * Base, the aggregator carries it to Celo, Mento exchanges it for COPm. Addresses from docs/domain-facts.md.
 */
export const MAINNET_CHAINS: Record<ChainRole, Omit<ChainDescriptor, "rpcUrl">> = {
  source: {
    role: "source",
    chainId: 42161,
    name: "Arbitrum One",
    cctpDomain: 3,
    confirmations: 3,
    contracts: {
      usdc: "0xaf88d065e77c8cC2239327C5EDb3A432268e5831",
      tokenMessenger: TOKEN_MESSENGER_V2_MAINNET,
      messageTransmitter: MESSAGE_TRANSMITTER_V2_MAINNET,
    },
  },
  intermediate: {
    role: "intermediate",
    chainId: 8453,
    name: "Base",
    cctpDomain: 6,
    confirmations: 3,
    contracts: {
      usdc: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
      tokenMessenger: TOKEN_MESSENGER_V2_MAINNET,
      messageTransmitter: MESSAGE_TRANSMITTER_V2_MAINNET,
    },
  },
  destination: {
    role: "destination",
    chainId: 42220,
    name: "Celo",
    confirmations: 3,
    contracts: {
      usdc: "0xcebA9300f2b948710d2653dD7B07f33A8B32118C",
      usdt: "0x48065fbBE25f71C9282ddf5e1cD6D6A887483D5e",
      usdm: "0x765DE816845861e75A25fCA122bb6898B8B1282a",
      copm: "0x8A567e2aE79CA692Bd748aB832081C45de4041eA",
      broker: "0x777A8255cA72412f0d706dc03C9D1987306B4CaD",
      // BiPoolManager, the exchange provider of every Mento v2 pool the Broker trades: Mento's
      // deployment list (mento-protocol/docs build/deployments/addresses.md, "Mento v2.0", Celo
      // Mainnet) and mento-protocol/mento-sdk src/constants/addresses.ts.
      exchangeProvider: "0x22d9db95E6Ae61c104A7B6F6C78D7993B94ec901",
      // MentoRouter over the Broker above: mento-protocol/mento-sdk src/constants/addresses.ts
      // (CELO: MentoRouter) and mento-protocol/mento-router, whose broadcast
      // broadcast/Deploy.s.sol/42220/run-1716977642.json created it with this Broker and whose
      // script/Swap.s.sol swaps through it; its deployment bytecode has getAmountOut. The README of
      // mento-router names an earlier deployment, 0x8263B5d2553CF13b7c4E2dC288F5fe1fE375f56b, whose
      // bytecode has no getAmountOut. Both require a path of at least two steps ("MentoRouter:
      // INVALID_PATH"): a direct USDm -> COPm swap goes to the Broker's swapIn, not the router.
      mentoRouter: "0xBE729350F8CdFC19DB6866e8579841188eE57f67",
      // payoutDepositor: filled in once PayoutDepositor is deployed on Celo; until then a payout
      // refuses to start on this profile.
    },
  },
};

/**
 * Testnets: Ethereum Sepolia to Base Sepolia over CCTP. The Celo Sepolia Mento addresses were not
 * verified from a source (docs/sandbox.md), so the destination carries none until they are.
 */
export const TESTNET_CHAINS: Record<ChainRole, Omit<ChainDescriptor, "rpcUrl">> = {
  source: {
    role: "source",
    chainId: 11155111,
    name: "Ethereum Sepolia",
    cctpDomain: 0,
    confirmations: 2,
    contracts: {
      usdc: "0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238",
      tokenMessenger: TOKEN_MESSENGER_V2_TESTNET,
      messageTransmitter: MESSAGE_TRANSMITTER_V2_TESTNET,
    },
  },
  intermediate: {
    role: "intermediate",
    chainId: 84532,
    name: "Base Sepolia",
    cctpDomain: 6,
    confirmations: 2,
    contracts: {
      usdc: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
      tokenMessenger: TOKEN_MESSENGER_V2_TESTNET,
      messageTransmitter: MESSAGE_TRANSMITTER_V2_TESTNET,
    },
  },
  destination: {
    role: "destination",
    chainId: 11142220,
    name: "Celo Sepolia",
    confirmations: 2,
    // payoutDepositor too: filled in once PayoutDepositor is deployed on Celo Sepolia; until then a
    // payout refuses to start on this profile.
    contracts: {},
  },
};
