import { CHAINALYSIS_SANCTIONS_ORACLE } from "./abis";
import type { ChainDescriptor } from "./descriptor";

/** Where PayoutDepositor is deployed on every chain: the deterministic deployment proxy, salt 0. */
export const PAYOUT_DEPOSITOR_CREATE2 = {
  deployer: "0x4e59b44847b379578588920cA78FbF26c0B4956C",
  salt: "0x0000000000000000000000000000000000000000000000000000000000000000",
} as const;

/** Circle's TokenMessengerV2 has one address on every EVM mainnet (docs/domain-facts.md). */
const TOKEN_MESSENGER_V2_MAINNET: `0x${string}` = "0x28b5a0e9C621a5BadaA536219b3a228C8168cf5d";
/** And one on every testnet (developers.circle.com/cctp/references/contract-addresses). */
const TOKEN_MESSENGER_V2_TESTNET: `0x${string}` = "0x8FE6B999Dc680CcFDD5Bf7EB0974218be2542DAA";
/** Circle's MessageTransmitterV2, likewise one address per network kind (same page). */
const MESSAGE_TRANSMITTER_V2_MAINNET: `0x${string}` = "0x81D40F21F12A8F0E3252Bccb954D722d4c464B64";
const MESSAGE_TRANSMITTER_V2_TESTNET: `0x${string}` = "0xE737e5cEBEEBa77EFE34D4aa090756590b1CE275";

/** A chain of a profile: its RPC URL comes from the deployment's variables. */
export type ProfileChain = Omit<ChainDescriptor, "rpcUrl">;

/**
 * A profile's chains: every source chain a settlement may start from (the first is the default of an
 * organization that names none), the intermediate chain where CCTP mints, the destination chain.
 */
export interface ChainProfile {
  sources: readonly [ProfileChain, ...ProfileChain[]];
  intermediate: ProfileChain;
  destination: ProfileChain;
}

/**
 * A CCTP v2 source chain (docs/domain-facts.md, "Source chains"): its domain, USDC, Circle's
 * messenger and transmitter (returns mint there), the service's confirmations and Circle's typical
 * attestation times (Standard; Fast where Circle offers it from the chain).
 */
function cctpSource(
  chain: Pick<ProfileChain, "chainId" | "name" | "confirmations"> & {
    cctpDomain: number;
    usdc: `0x${string}`;
    attestation: NonNullable<ProfileChain["attestation"]>;
    /** Where Chainalysis deploys its sanctions oracle on the chain, if it does (docs/domain-facts.md). */
    sanctionsOracle?: `0x${string}`;
  },
  circle: { tokenMessenger: `0x${string}`; messageTransmitter: `0x${string}` },
): ProfileChain {
  return {
    role: "source",
    chainId: chain.chainId,
    name: chain.name,
    cctpDomain: chain.cctpDomain,
    confirmations: chain.confirmations,
    attestation: chain.attestation,
    contracts: {
      usdc: chain.usdc,
      ...circle,
      ...(chain.sanctionsOracle ? { sanctionsOracle: chain.sanctionsOracle } : {}),
    },
  };
}

const CIRCLE_MAINNET = {
  tokenMessenger: TOKEN_MESSENGER_V2_MAINNET,
  messageTransmitter: MESSAGE_TRANSMITTER_V2_MAINNET,
};
const CIRCLE_TESTNET = {
  tokenMessenger: TOKEN_MESSENGER_V2_TESTNET,
  messageTransmitter: MESSAGE_TRANSMITTER_V2_TESTNET,
};

/** Circle's Standard attestation on chains that settle on Ethereum: about 65 Ethereum blocks, 13–19 minutes. */
const ETHEREUM_FINALITY_SECONDS = 19 * 60;

/**
 * Real deployments. Mainnet: USDC leaves any of Circle's CCTP v2 EVM chains (Arbitrum unless the
 * organization or the quote names another), CCTP (with the Forwarding Service) mints it on Base, the
 * aggregator carries it to Celo, Mento exchanges it for COPm. Addresses and times from
 * docs/domain-facts.md ("Source chains": which chains, and which were left out and why). A source
 * chain is offered only where its RPC URL is set (SOURCE_RPC_URL for the first, SOURCE_RPC_URLS).
 */
export const MAINNET_CHAINS: ChainProfile = {
  sources: [
    cctpSource(
      {
        chainId: 42161,
        name: "Arbitrum One",
        cctpDomain: 3,
        confirmations: 3,
        usdc: "0xaf88d065e77c8cC2239327C5EDb3A432268e5831",
        attestation: { standardSeconds: ETHEREUM_FINALITY_SECONDS, fastSeconds: 8 },
        sanctionsOracle: CHAINALYSIS_SANCTIONS_ORACLE,
      },
      CIRCLE_MAINNET,
    ),
    cctpSource(
      {
        chainId: 1,
        name: "Ethereum",
        cctpDomain: 0,
        confirmations: 2,
        usdc: "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48",
        attestation: { standardSeconds: ETHEREUM_FINALITY_SECONDS, fastSeconds: 20 },
        sanctionsOracle: CHAINALYSIS_SANCTIONS_ORACLE,
      },
      CIRCLE_MAINNET,
    ),
    cctpSource(
      {
        chainId: 43114,
        name: "Avalanche C-Chain",
        cctpDomain: 1,
        confirmations: 1,
        usdc: "0xB97EF9Ef8734C71904D8002F8b6Bc66Dd9c48a6E",
        attestation: { standardSeconds: 8 },
        sanctionsOracle: CHAINALYSIS_SANCTIONS_ORACLE,
      },
      CIRCLE_MAINNET,
    ),
    cctpSource(
      {
        chainId: 10,
        name: "OP Mainnet",
        cctpDomain: 2,
        confirmations: 3,
        usdc: "0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85",
        attestation: { standardSeconds: ETHEREUM_FINALITY_SECONDS, fastSeconds: 8 },
        sanctionsOracle: CHAINALYSIS_SANCTIONS_ORACLE,
      },
      CIRCLE_MAINNET,
    ),
    cctpSource(
      {
        chainId: 137,
        name: "Polygon PoS",
        cctpDomain: 7,
        confirmations: 3,
        usdc: "0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359",
        attestation: { standardSeconds: 8 },
        sanctionsOracle: CHAINALYSIS_SANCTIONS_ORACLE,
      },
      CIRCLE_MAINNET,
    ),
    cctpSource(
      {
        chainId: 130,
        name: "Unichain",
        cctpDomain: 10,
        confirmations: 3,
        usdc: "0x078D782b760474a361dDA0AF3839290b0EF57AD6",
        attestation: { standardSeconds: ETHEREUM_FINALITY_SECONDS, fastSeconds: 8 },
      },
      CIRCLE_MAINNET,
    ),
    cctpSource(
      // Circle's Standard from Linea waits for its hard finality, hours: Fast is the way from Linea.
      {
        chainId: 59144,
        name: "Linea",
        cctpDomain: 11,
        confirmations: 3,
        usdc: "0x176211869cA2b568f2A7D4EE941E073a821EE1ff",
        attestation: { standardSeconds: 32 * 3600, fastSeconds: 8 },
      },
      CIRCLE_MAINNET,
    ),
    cctpSource(
      {
        chainId: 81224,
        name: "Codex",
        cctpDomain: 12,
        confirmations: 3,
        usdc: "0xd996633a415985DBd7D6D12f4A4343E31f5037cf",
        attestation: { standardSeconds: ETHEREUM_FINALITY_SECONDS, fastSeconds: 8 },
      },
      CIRCLE_MAINNET,
    ),
    cctpSource(
      {
        chainId: 146,
        name: "Sonic",
        cctpDomain: 13,
        confirmations: 1,
        usdc: "0x29219dd400f2Bf60E5a23d13Be72B486D4038894",
        attestation: { standardSeconds: 8 },
      },
      CIRCLE_MAINNET,
    ),
    cctpSource(
      {
        chainId: 480,
        name: "World Chain",
        cctpDomain: 14,
        confirmations: 3,
        usdc: "0x79A02482A880bCE3F13e09Da970dC34db4CD24d1",
        attestation: { standardSeconds: ETHEREUM_FINALITY_SECONDS, fastSeconds: 8 },
      },
      CIRCLE_MAINNET,
    ),
    cctpSource(
      {
        chainId: 143,
        name: "Monad",
        cctpDomain: 15,
        confirmations: 1,
        usdc: "0x754704Bc059F8C67012fEd69BC8A327a5aafb603",
        attestation: { standardSeconds: 5 },
      },
      CIRCLE_MAINNET,
    ),
    cctpSource(
      {
        chainId: 1329,
        name: "Sei",
        cctpDomain: 16,
        confirmations: 1,
        usdc: "0xe15fC38F6D8c56aF07bbCBe3BAf5708A2Bf42392",
        attestation: { standardSeconds: 5 },
      },
      CIRCLE_MAINNET,
    ),
    cctpSource(
      {
        chainId: 50,
        name: "XDC",
        cctpDomain: 18,
        confirmations: 3,
        usdc: "0xfA2958CB79b0491CC627c1557F441eF849Ca8eb1",
        attestation: { standardSeconds: 10 },
      },
      CIRCLE_MAINNET,
    ),
    cctpSource(
      {
        chainId: 999,
        name: "HyperEVM",
        cctpDomain: 19,
        confirmations: 1,
        usdc: "0xb88339CB7199b77E23DB6E890353E22632Ba630f",
        attestation: { standardSeconds: 5 },
      },
      CIRCLE_MAINNET,
    ),
    cctpSource(
      {
        chainId: 57073,
        name: "Ink",
        cctpDomain: 21,
        confirmations: 3,
        usdc: "0x2D270e6886d130D724215A266106e6832161EAEd",
        attestation: { standardSeconds: 30 * 60, fastSeconds: 8 },
      },
      CIRCLE_MAINNET,
    ),
    cctpSource(
      {
        chainId: 98866,
        name: "Plume",
        cctpDomain: 22,
        confirmations: 3,
        usdc: "0x222365EF19F7947e5484218551B56bb3965Aa7aF",
        attestation: { standardSeconds: ETHEREUM_FINALITY_SECONDS, fastSeconds: 8 },
      },
      CIRCLE_MAINNET,
    ),
  ],
  intermediate: {
    role: "intermediate",
    chainId: 8453,
    name: "Base",
    cctpDomain: 6,
    confirmations: 3,
    // USDC already on Base settles without CCTP: a transfer to the settlement account.
    contracts: {
      usdc: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
      ...CIRCLE_MAINNET,
      // Chainalysis's oracle has its own address on Base (docs/domain-facts.md, "Sanctions screening").
      sanctionsOracle: "0x3A91A31cB3dC49b4db9Ce721F50a9D076c8D739B",
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
      sanctionsOracle: CHAINALYSIS_SANCTIONS_ORACLE,
    },
  },
};

/**
 * Testnets, shaped as mainnet: USDC leaves Arbitrum Sepolia (or Ethereum Sepolia, Avalanche Fuji, OP
 * Sepolia), CCTP (with the Forwarding Service) mints it on Base Sepolia, and Mento exchanges on Celo
 * Sepolia. Circle's testnet contracts are one address on every testnet
 * (developers.circle.com/cctp/evm-smart-contracts; circlefin/cctp-go chains.go), Circle's testnet USDC
 * per chain from developers.circle.com/stablecoins/usdc-contract-addresses, Mento's from
 * mento-protocol/mento-sdk (src/core/constants/addresses.ts and src/constants/tokens.11142220.ts,
 * which list a direct COPm/USDm pool). No aggregator serves these testnets (LI.FI's chains are
 * mainnets only; its staging API lists no Celo Sepolia), so the route from Base Sepolia to Celo
 * Sepolia has no testnet: `npm run rehearsal` stands in for it (docs/operations.md).
 */
export const TESTNET_CHAINS: ChainProfile = {
  sources: [
    cctpSource(
      {
        chainId: 421614,
        name: "Arbitrum Sepolia",
        cctpDomain: 3,
        confirmations: 2,
        usdc: "0x75faf114eafb1BDbe2F0316DF893fd58CE46AA4d",
        attestation: { standardSeconds: ETHEREUM_FINALITY_SECONDS, fastSeconds: 8 },
      },
      CIRCLE_TESTNET,
    ),
    cctpSource(
      {
        chainId: 11155111,
        name: "Ethereum Sepolia",
        cctpDomain: 0,
        confirmations: 2,
        usdc: "0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238",
        attestation: { standardSeconds: ETHEREUM_FINALITY_SECONDS, fastSeconds: 20 },
      },
      CIRCLE_TESTNET,
    ),
    cctpSource(
      {
        chainId: 43113,
        name: "Avalanche Fuji",
        cctpDomain: 1,
        confirmations: 1,
        usdc: "0x5425890298aed601595a70AB815c96711a31Bc65",
        attestation: { standardSeconds: 8 },
      },
      CIRCLE_TESTNET,
    ),
    cctpSource(
      {
        chainId: 11155420,
        name: "OP Sepolia",
        cctpDomain: 2,
        confirmations: 2,
        usdc: "0x5fd84259d66Cd46123540766Be93DFE6D43130D7",
        attestation: { standardSeconds: ETHEREUM_FINALITY_SECONDS, fastSeconds: 8 },
      },
      CIRCLE_TESTNET,
    ),
  ],
  intermediate: {
    role: "intermediate",
    chainId: 84532,
    name: "Base Sepolia",
    cctpDomain: 6,
    confirmations: 2,
    contracts: {
      usdc: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
      ...CIRCLE_TESTNET,
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

/** A profile's chains in one list: the sources first (the default first of all). */
export function profileChainList(profile: ChainProfile): ProfileChain[] {
  return [...profile.sources, profile.intermediate, profile.destination];
}
