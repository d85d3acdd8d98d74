import { type Chain, defineChain } from "viem";

/** A viem chain for a chain the service knows by id, name and RPC URL (gas token: 18-decimal ETH). */
export function viemChainOf(chain: { chainId: number; name: string; rpcUrl: string }): Chain {
  return defineChain({
    id: chain.chainId,
    name: chain.name,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [chain.rpcUrl] } },
  });
}
