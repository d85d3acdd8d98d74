import type { ConfiguredChain } from "./registry";

/** What a leg adapter needs of a chain: the registry's view of it (or a test's, built the same way). */
export type LegChain = Pick<
  ConfiguredChain,
  "chainId" | "name" | "rpcUrl" | "cctpDomain" | "contracts" | "client"
>;

/** A contract the adapter cannot work without; missing is a configuration mistake, found at start. */
export function requiredContract(
  chain: Pick<LegChain, "name" | "contracts">,
  key: keyof LegChain["contracts"],
): `0x${string}` {
  const address = chain.contracts[key];
  if (!address) throw new Error(`${chain.name} has no ${key} configured`);
  return address;
}

export function requiredDomain(chain: Pick<LegChain, "name" | "cctpDomain">): number {
  if (chain.cctpDomain === undefined) throw new Error(`${chain.name} has no CCTP domain configured`);
  return chain.cctpDomain;
}
