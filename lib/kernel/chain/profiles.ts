import { CHAINALYSIS_SANCTIONS_ORACLE } from "./abis";
import {
  type ChainProfile,
  CIRCLE_MAINNET,
  cctpSource,
  ETHEREUM_FINALITY_SECONDS,
  type ProfileChain,
} from "./profile-parts";

export type { ChainProfile, ProfileChain } from "./profile-parts";
export { TESTNET_CHAINS } from "./testnet-profile";

/** Where PayoutDepositor is deployed on every chain: the deterministic deployment proxy, salt 0. */
export const PAYOUT_DEPOSITOR_CREATE2 = {
  deployer: "0x4e59b44847b379578588920cA78FbF26c0B4956C",
  salt: "0x0000000000000000000000000000000000000000000000000000000000000000",
} as const;

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

/** A profile's chains in one list: the sources first (the default first of all). */
export function profileChainList(profile: ChainProfile): ProfileChain[] {
  return [...profile.sources, profile.intermediate, profile.destination];
}
