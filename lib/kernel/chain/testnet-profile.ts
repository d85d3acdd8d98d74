import { type ChainProfile, CIRCLE_TESTNET, cctpSource, ETHEREUM_FINALITY_SECONDS } from "./profile-parts";

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
