import type { ChainRegistry, ConfiguredChain } from "./registry";

/** A source chain as a request names it: its chain id, or its name as the network lists it (any case). */
export type SourceChainRef = number | string;

/** The served source chain a request names, if any. */
export function findSourceChain(
  chains: Pick<ChainRegistry, "sources">,
  ref: SourceChainRef,
): ConfiguredChain | undefined {
  if (typeof ref === "number" || /^[1-9]\d{0,15}$/.test(ref)) {
    const chainId = Number(ref);
    return chains.sources.find((chain) => chain.chainId === chainId);
  }
  const name = ref.trim().toLowerCase();
  return chains.sources.find((chain) => chain.name.toLowerCase() === name);
}
