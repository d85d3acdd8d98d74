import type { ConfiguredChain } from "./registry";

/** What a leg adapter needs of a chain: the registry's view of it (or a test's, built the same way). */
export type LegChain = Pick<
  ConfiguredChain,
  "chainId" | "name" | "rpcUrl" | "cctpDomain" | "contracts" | "client"
>;
