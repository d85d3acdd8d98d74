import { join } from "node:path";
import { defineConfig } from "hardhat/config";
import type { EdrNetworkUserConfig } from "hardhat/types/config";
import { localDataDir } from "../paths";
import { OPERATOR_NATIVE_BALANCE, SANDBOX_OPERATOR_PRIVATE_KEY } from "./operator";
import { CHAIN_KEYS, CHAIN_ROLES } from "./roles";
import type { SandboxChainKey } from "./types";

function sandboxNetwork(
  role: SandboxChainKey,
  startAt: Date | undefined,
  chainId?: number,
): EdrNetworkUserConfig {
  return {
    type: "edr-simulated",
    chainId: chainId ?? CHAIN_ROLES[role].chainId,
    // Only the operator is funded: any other wallet gets its gas from the operator, as a partner's would.
    accounts: [{ privateKey: SANDBOX_OPERATOR_PRIVATE_KEY, balance: OPERATOR_NATIVE_BALANCE }],
    mining: { auto: true },
    // As on a real node: a sent transaction that reverts is mined with status 0 (the service must
    // see such receipts), while a call or gas estimate that reverts answers an error with its reason.
    throwOnTransactionFailures: false,
    throwOnCallFailures: true,
    // Under an injected clock (stampBlocksFromClock), genesis is the clock's time, and blocks mined
    // while that clock stands still share its second.
    ...(startAt ? { initialDate: startAt, allowBlocksWithSameTimestamp: true } : {}),
  };
}

/**
 * The Hardhat configuration of the sandbox chains. It lives here rather than at the top of the
 * repository: startSandboxChains passes it (and its path) explicitly. Hardhat's cache and artifacts
 * go under .data/, though nothing here compiles with Hardhat (solc-js does, see compile.ts).
 * `startAt` is the genesis time of chains that follow an injected clock; without it the chains start
 * at wall time and keep it.
 */
export function sandboxHardhatConfig(
  startAt?: Date,
  chainIds: Partial<Record<SandboxChainKey, number>> = {},
) {
  return defineConfig({
    paths: {
      cache: join(localDataDir("chains", "hardhat"), "cache"),
      artifacts: join(localDataDir("chains", "hardhat"), "artifacts"),
    },
    networks: Object.fromEntries(CHAIN_KEYS.map((key) => [key, sandboxNetwork(key, startAt, chainIds[key])])),
  });
}

export default sandboxHardhatConfig();
