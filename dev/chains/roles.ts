import type { ChainRole } from "./types";

export interface ChainRoleFacts {
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
}

/** Source is Arbitrum-like (domain 3), intermediate Base-like (domain 6), destination Celo-like. */
export const CHAIN_ROLES: Record<ChainRole, ChainRoleFacts> = {
  source: { chainId: 31331, name: "Sandbox Source", cctpDomain: 3, firstNonce: 0 },
  intermediate: { chainId: 31332, name: "Sandbox Intermediate", cctpDomain: 6, firstNonce: 1000 },
  destination: { chainId: 31333, name: "Sandbox Destination", firstNonce: 2000 },
};

export const ROLE_ORDER: readonly ChainRole[] = ["source", "intermediate", "destination"];
