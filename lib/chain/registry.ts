import { createPublicClient, http, type PublicClient } from "viem";
import type { Config } from "../config";

export const CHAIN_ROLES = ["source", "intermediate", "destination"] as const;
export type ChainRole = (typeof CHAIN_ROLES)[number];

export interface ConfiguredChain {
  role: ChainRole;
  rpcUrl: string;
  client: PublicClient;
}

export interface ChainRegistry {
  chains: readonly ConfiguredChain[];
  byRole(role: ChainRole): ConfiguredChain | undefined;
}

const RPC_VARIABLE: Record<ChainRole, "SOURCE_RPC_URL" | "INTERMEDIATE_RPC_URL" | "DESTINATION_RPC_URL"> = {
  source: "SOURCE_RPC_URL",
  intermediate: "INTERMEDIATE_RPC_URL",
  destination: "DESTINATION_RPC_URL",
};

/** The chains whose RPC URL is configured, one per role, each with its own viem client. */
export function chainRegistry(config: Config, timeoutMs = 5_000): ChainRegistry {
  const chains = CHAIN_ROLES.flatMap((role) => {
    const rpcUrl = config[RPC_VARIABLE[role]];
    if (!rpcUrl) return [];
    const client = createPublicClient({ transport: http(rpcUrl, { timeout: timeoutMs, retryCount: 0 }) });
    return [{ role, rpcUrl, client }];
  });
  return { chains, byRole: (role) => chains.find((chain) => chain.role === role) };
}
