import { custom, http, type PublicClient } from "viem";
import type { Config } from "../config";
import { chainClient } from "./client";
import type { ChainDescriptor, ChainRole } from "./descriptor";
import { MAINNET_CHAINS, profileChainList, TESTNET_CHAINS } from "./profiles";

export interface ConfiguredChain extends ChainDescriptor {
  rpcUrl: string;
  client: PublicClient;
}

export interface ChainRegistry {
  profile: Config["CHAIN_PROFILE"];
  chains: readonly ConfiguredChain[];
  /** The chain of a role; for `source`, the default source chain (the profile's first). */
  byRole(role: ChainRole): ConfiguredChain | undefined;
  /** Every source chain with an RPC URL, the default first. */
  sources: readonly ConfiguredChain[];
  byChainId(chainId: number): ConfiguredChain | undefined;
  /**
   * A chain of the profile by id, served or not: a source chain whose RPC URL was removed is still
   * known (its domain and contracts) to the orders made on it, and its reads fail as an unreachable
   * RPC's. Never offered for new quotes.
   */
  known(chainId: number): ConfiguredChain | undefined;
}

const RPC_VARIABLE: Record<ChainRole, "SOURCE_RPC_URL" | "INTERMEDIATE_RPC_URL" | "DESTINATION_RPC_URL"> = {
  source: "SOURCE_RPC_URL",
  intermediate: "INTERMEDIATE_RPC_URL",
  destination: "DESTINATION_RPC_URL",
};

/**
 * The chains of the configured profile: `local` from the sandbox network that `npm run dev` or the
 * tests started (SANDBOX_NETWORK), `testnet` and `mainnet` from the real deployments. A chain is
 * present only when its RPC URL is known: the role's variable (SOURCE_RPC_URL names the first source
 * chain's), SOURCE_RPC_URLS by chain id for the other source chains, else the descriptor's own.
 */
export function chainRegistry(config: Config, timeoutMs = 5_000): ChainRegistry {
  const descriptors = profileChains(config);
  const firstSource = descriptors.find((descriptor) => descriptor.role === "source");
  const chains = descriptors.flatMap((descriptor) => {
    const byVariable =
      descriptor.role !== "source" || descriptor === firstSource
        ? config[RPC_VARIABLE[descriptor.role]]
        : undefined;
    const rpcUrl =
      (descriptor.role === "source" ? config.SOURCE_RPC_URLS[String(descriptor.chainId)] : undefined) ??
      byVariable ??
      descriptor.rpcUrl;
    if (!rpcUrl) return [];
    // No block-number cache: confirmations are counted against the chain as it is now.
    const client = chainClient({
      transport: http(rpcUrl, { timeout: timeoutMs, retryCount: 0 }),
      cacheTime: 0,
    });
    return [{ ...descriptor, rpcUrl, client }];
  });
  const sources = chains.filter((chain) => chain.role === "source");
  const unserved = descriptors.flatMap((descriptor) =>
    descriptor.role === "source" && !chains.some((chain) => chain.chainId === descriptor.chainId)
      ? [{ ...descriptor, rpcUrl: "", client: unreachableClient(descriptor.name) }]
      : [],
  );
  return {
    profile: config.CHAIN_PROFILE,
    chains,
    byRole: (role) => (role === "source" ? sources[0] : chains.find((chain) => chain.role === role)),
    sources,
    byChainId: (chainId) => chains.find((chain) => chain.chainId === chainId),
    known: (chainId) => [...chains, ...unserved].find((chain) => chain.chainId === chainId),
  };
}

/** A client for a chain without an RPC URL: every read fails, as an unreachable node's would. */
function unreachableClient(name: string): PublicClient {
  return chainClient({
    transport: custom({
      request: async () => {
        throw new Error(`${name} has no RPC URL configured (SOURCE_RPC_URL, SOURCE_RPC_URLS)`);
      },
    }),
  });
}

function profileChains(config: Config): ChainDescriptor[] {
  switch (config.CHAIN_PROFILE) {
    case "local":
      return config.SANDBOX_NETWORK?.chains ?? [];
    case "testnet":
      return profileChainList(TESTNET_CHAINS);
    case "mainnet":
      return profileChainList(MAINNET_CHAINS);
  }
}

/**
 * A client whose reads made in the same tick go as one JSON-RPC batch (one round trip), for one
 * operation's reads only: make one per call, never keep it. The chain's shared client is used across
 * a Worker's concurrent requests, and a batch started by one request would be cancelled with it
 * while another request waits on its answer.
 */
export function batchingClientOf(chain: { rpcUrl: string }, timeoutMs: number): PublicClient {
  return chainClient({
    transport: http(chain.rpcUrl, { timeout: timeoutMs, retryCount: 0, batch: { batchSize: 20 } }),
    cacheTime: 0,
  });
}
