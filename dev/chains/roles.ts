import type { ChainRole, SandboxChainKey } from "./types";

export interface ChainRoleFacts {
  role: ChainRole;
  chainId: number;
  name: string;
  /** CCTP domain; the destination (like Celo) has none. */
  cctpDomain?: number;
  /**
   * The operator's nonce before the first deployment. Different per chain so that no two chains
   * share a token address (a client that mixes chains up fails here as it would in production),
   * and fixed so that every start yields the same addresses.
   */
  firstNonce: number;
  /**
   * Source chains: the attestation times the service is told (the local Circle attests every burn
   * after the same delay); `sourceB`, as Avalanche, has no Fast Transfer (its Standard is fast).
   */
  attestation?: { standardSeconds: number; fastSeconds?: number };
}

/**
 * Two source chains, Arbitrum-like (domain 3, the default) and Avalanche-like (domain 1, Standard
 * only); the intermediate Base-like (domain 6); the destination Celo-like.
 */
export const CHAIN_ROLES: Record<SandboxChainKey, ChainRoleFacts> = {
  source: {
    role: "source",
    chainId: 31331,
    name: "Sandbox Source",
    cctpDomain: 3,
    firstNonce: 0,
    attestation: { standardSeconds: 3, fastSeconds: 3 },
  },
  sourceB: {
    role: "source",
    chainId: 31334,
    name: "Sandbox Source B",
    cctpDomain: 1,
    firstNonce: 3000,
    attestation: { standardSeconds: 3 },
  },
  intermediate: {
    role: "intermediate",
    chainId: 31332,
    name: "Sandbox Intermediate",
    cctpDomain: 6,
    firstNonce: 1000,
  },
  destination: { role: "destination", chainId: 31333, name: "Sandbox Destination", firstNonce: 2000 },
};

/** Every sandbox chain, the default source first. */
export const CHAIN_KEYS: readonly SandboxChainKey[] = ["source", "sourceB", "intermediate", "destination"];
