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
});

const chainDescriptorSchema = z.object({
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

/** Where PayoutDepositor is deployed on every chain: the deterministic deployment proxy, salt 0. */
export const PAYOUT_DEPOSITOR_CREATE2 = {
  deployer: "0x4e59b44847b379578588920cA78FbF26c0B4956C",
  salt: "0x0000000000000000000000000000000000000000000000000000000000000000",
} as const;

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
      // PayoutDepositor's address once deployed through the deterministic deployment proxy
      // (0x4e59b44847b379578588920cA78FbF26c0B4956C, on Celo) with salt 0: CREATE2 of its compiled
      // bytecode, so anyone can deploy it there in one transaction and nobody can put anything else
      // there (PAYOUT_DEPOSITOR_CREATE2; tests/dev/payout-depositor.chains.test.ts keeps the two equal).
      // Until it is deployed the address has no code, and a payout refuses to start (the service
      // reads the code before handing out a plan that sends money to it).
      payoutDepositor: "0x25017BB6b0CDF93D93089DbfE290b9d5b5EC3C38",
    },
  },
};

/**
 * Testnets, shaped as mainnet: USDC leaves Arbitrum Sepolia, CCTP (with the Forwarding Service)
 * mints it on Base Sepolia, and Mento exchanges on Celo Sepolia. Circle's testnet contracts are one
 * address on every testnet (developers.circle.com/cctp/evm-smart-contracts; circlefin/cctp-go
 * chains.go), Mento's from mento-protocol/mento-sdk (src/core/constants/addresses.ts and
 * src/constants/tokens.11142220.ts, which list a direct COPm/USDm pool). No aggregator serves these
 * testnets (LI.FI's chains are mainnets only; its staging API lists no Celo Sepolia), so the route
 * from Base Sepolia to Celo Sepolia has no testnet: `npm run rehearsal` stands in for it
 * (docs/operations.md).
 */
export const TESTNET_CHAINS: Record<ChainRole, Omit<ChainDescriptor, "rpcUrl">> = {
  source: {
    role: "source",
    chainId: 421614,
    name: "Arbitrum Sepolia",
    cctpDomain: 3,
    confirmations: 2,
    contracts: {
      usdc: "0x75faf114eafb1BDbe2F0316DF893fd58CE46AA4d",
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
    contracts: {
      usdc: "0x01C5C0122039549AD1493B8220cABEdD739BC44E",
      usdt: "0xd077A400968890Eacc75cdc901F0356c943e4fDb",
      usdm: "0xdE9e4C3ce781b4bA68120d6261cbad65ce0aB00b",
      copm: "0x5F8d55c3627d2dc0a2B4afa798f877242F382F67",
      broker: "0xB9Ae2065142EB79b6c5EB1E8778F883fad6B07Ba",
      exchangeProvider: "0xeCB3C656C131fCd9bB8D1d80898716bD684feb78",
      mentoRouter: "0x8e4Fb12D86D5DF911086a9153e79CA27e0c96156",
      payoutDepositor: "0x25017BB6b0CDF93D93089DbfE290b9d5b5EC3C38",
    },
  },
};
