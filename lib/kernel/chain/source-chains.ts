import type { ChainRegistry, ConfiguredChain } from "./registry";

/** A source chain as a request names it: its chain id, or its name as the network lists it (any case). */
export type SourceChainRef = number | string;

/**
 * Where a settlement's USDC may start: every source chain, and the intermediate chain itself (USDC
 * already there, sent to the settlement account without CCTP) when it has USDC.
 */
export function startingChains(chains: Pick<ChainRegistry, "sources" | "byRole">): ConfiguredChain[] {
  const intermediate = chains.byRole("intermediate");
  return [...chains.sources, ...(intermediate?.contracts.usdc ? [intermediate] : [])];
}

/** The served chain a request names as its source, if any. */
export function findSourceChain(
  chains: Pick<ChainRegistry, "sources" | "byRole">,
  ref: SourceChainRef,
): ConfiguredChain | undefined {
  const candidates = startingChains(chains);
  if (typeof ref === "number" || /^[1-9]\d{0,15}$/.test(ref)) {
    const chainId = Number(ref);
    return candidates.find((chain) => chain.chainId === chainId);
  }
  const name = ref.trim().toLowerCase();
  return candidates.find((chain) => chain.name.toLowerCase() === name);
}
