import { type Chain, defineChain } from "viem";
import type { SandboxChain } from "./types";

/** A viem chain for a running sandbox chain (EDR's gas token is an 18-decimal "ETH"). */
export function sandboxViemChain(chain: Pick<SandboxChain, "chainId" | "name" | "rpcUrl">): Chain {
  return defineChain({
    id: chain.chainId,
    name: chain.name,
    nativeCurrency: { name: "Sandbox Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [chain.rpcUrl] } },
    testnet: true,
  });
}
