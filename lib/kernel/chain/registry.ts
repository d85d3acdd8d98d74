import { createPublicClient, http, type PublicClient } from "viem";
import type { Config } from "../config";
import { type ChainDescriptor, type ChainRole, MAINNET_CHAINS, TESTNET_CHAINS } from "./profiles";

export interface ConfiguredChain extends ChainDescriptor {
  rpcUrl: string;
  client: PublicClient;
}

export interface ChainRegistry {
  profile: Config["CHAIN_PROFILE"];
  chains: readonly ConfiguredChain[];
  byRole(role: ChainRole): ConfiguredChain | undefined;
}

const RPC_VARIABLE: Record<ChainRole, "SOURCE_RPC_URL" | "INTERMEDIATE_RPC_URL" | "DESTINATION_RPC_URL"> = {
  source: "SOURCE_RPC_URL",
  intermediate: "INTERMEDIATE_RPC_URL",
  destination: "DESTINATION_RPC_URL",
};

/**
 * The chain of each role for the configured profile: `local` from the sandbox network that
 * `npm run dev` or the tests started (SANDBOX_NETWORK), `testnet` and `mainnet` from the real
 * deployments. A chain is present only when its RPC URL is known; an RPC variable overrides.
 */
export function chainRegistry(config: Config, timeoutMs = 5_000): ChainRegistry {
  const descriptors = profileChains(config);
  const chains = descriptors.flatMap((descriptor) => {
    const rpcUrl = config[RPC_VARIABLE[descriptor.role]] ?? descriptor.rpcUrl;
    if (!rpcUrl) return [];
    // No block-number cache: confirmations are counted against the chain as it is now.
    const client = createPublicClient({
      transport: http(rpcUrl, { timeout: timeoutMs, retryCount: 0 }),
      cacheTime: 0,
    });
    return [{ ...descriptor, rpcUrl, client }];
  });
  return {
    profile: config.CHAIN_PROFILE,
    chains,
    byRole: (role) => chains.find((chain) => chain.role === role),
  };
}

function profileChains(config: Config): ChainDescriptor[] {
  switch (config.CHAIN_PROFILE) {
    case "local":
      return config.SANDBOX_NETWORK?.chains ?? [];
    case "testnet":
      return Object.values(TESTNET_CHAINS);
    case "mainnet":
      return Object.values(MAINNET_CHAINS);
  }
}

/**
 * A client whose reads made in the same tick go as one JSON-RPC batch (one round trip), for one
 * operation's reads only: make one per call, never keep it. The chain's shared client is used across
 * a Worker's concurrent requests, and a batch started by one request would be cancelled with it
 * while another request waits on its answer.
 */
export function batchingClientOf(chain: { rpcUrl: string }, timeoutMs: number): PublicClient {
  return createPublicClient({
    transport: http(chain.rpcUrl, { timeout: timeoutMs, retryCount: 0, batch: { batchSize: 20 } }),
    cacheTime: 0,
  });
}
