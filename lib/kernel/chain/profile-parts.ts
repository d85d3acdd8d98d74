import type { ChainDescriptor } from "./descriptor";

/** What the chain profiles (profiles.ts, testnet-profile.ts) are made of: their shape and Circle's contracts. */

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
export function cctpSource(
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

export const CIRCLE_MAINNET = {
  tokenMessenger: TOKEN_MESSENGER_V2_MAINNET,
  messageTransmitter: MESSAGE_TRANSMITTER_V2_MAINNET,
};
export const CIRCLE_TESTNET = {
  tokenMessenger: TOKEN_MESSENGER_V2_TESTNET,
  messageTransmitter: MESSAGE_TRANSMITTER_V2_TESTNET,
};

/** Circle's Standard attestation on chains that settle on Ethereum: about 65 Ethereum blocks, 13–19 minutes. */
export const ETHEREUM_FINALITY_SECONDS = 19 * 60;
