import {
  type Account,
  type Chain,
  createPublicClient,
  createWalletClient,
  http,
  type PublicClient,
  type Transport,
  type WalletClient,
} from "viem";
import type { SandboxChain } from "./types";
import { sandboxViemChain } from "./viem-chain";

/** Automine answers within milliseconds; viem's default 4 s receipt polling would dominate. */
const SANDBOX_POLLING_MS = 10;

export function sandboxPublicClient(
  chain: Pick<SandboxChain, "chainId" | "name" | "rpcUrl">,
): PublicClient<Transport, Chain> {
  return createPublicClient({
    chain: sandboxViemChain(chain),
    transport: http(chain.rpcUrl),
    pollingInterval: SANDBOX_POLLING_MS,
  });
}

export function sandboxWalletClient(
  chain: Pick<SandboxChain, "chainId" | "name" | "rpcUrl">,
  account: Account,
): WalletClient<Transport, Chain, Account> {
  return createWalletClient({ chain: sandboxViemChain(chain), transport: http(chain.rpcUrl), account });
}
