import { type Client, createClient, type PublicClient, type Transport } from "viem";
import {
  estimateFeesPerGas,
  estimateGas,
  getBalance,
  getBlock,
  getBlockNumber,
  getChainId,
  getCode,
  getGasPrice,
  getLogs,
  getTransaction,
  getTransactionCount,
  getTransactionReceipt,
  readContract,
  sendRawTransaction,
  verifyMessage,
  waitForTransactionReceipt,
} from "viem/actions";

/**
 * The public actions the service calls on a chain, and only these: `createPublicClient` binds all of
 * viem's (some sixty, ENS, multicall, simulation and filters among them), which puts every one's code
 * in the worker. tests/platform/worker-stand-ins.test.ts fails when the code calls one not listed here.
 */
const CHAIN_ACTIONS = {
  estimateFeesPerGas,
  estimateGas,
  getBalance,
  getBlock,
  getBlockNumber,
  getChainId,
  getCode,
  getGasPrice,
  getLogs,
  getTransaction,
  getTransactionCount,
  getTransactionReceipt,
  readContract,
  sendRawTransaction,
  verifyMessage,
  waitForTransactionReceipt,
} satisfies { [name in keyof PublicClient]?: unknown };

export const CHAIN_CLIENT_ACTIONS = Object.keys(CHAIN_ACTIONS) as ReadonlyArray<keyof typeof CHAIN_ACTIONS>;

/**
 * A chain's client: what `createPublicClient` makes (the same key, name and type, each action bound
 * to the client as viem's `publicActions` binds it), with the actions above only. Typed as viem's
 * PublicClient for the modules that take one.
 */
export function chainClient(parameters: { transport: Transport; cacheTime?: number }): PublicClient {
  const client = createClient({ ...parameters, key: "public", name: "Public Client", type: "publicClient" });
  return client.extend((base) => {
    const bound: Record<string, (args?: unknown) => unknown> = {};
    for (const [name, action] of Object.entries(CHAIN_ACTIONS)) {
      bound[name] = (args) => (action as (client: Client, args?: unknown) => unknown)(base, args);
    }
    return bound;
  }) as unknown as PublicClient;
}
