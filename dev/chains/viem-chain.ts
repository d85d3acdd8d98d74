import type { Chain } from "viem";
import { viemChainOf } from "../../lib/kernel/chain/viem-chain";
import type { SandboxChain } from "./types";

/** A viem chain for a running sandbox chain. */
export function sandboxViemChain(chain: Pick<SandboxChain, "chainId" | "name" | "rpcUrl">): Chain {
  return viemChainOf(chain);
}
