import { fileURLToPath } from "node:url";
import { createHardhatRuntimeEnvironment } from "hardhat/hre";
import type { Clock } from "../../lib/kernel/clock";
import { type ListenPort, portIsFree, portToBind } from "../listen-port";
import { PROJECT_ROOT } from "../paths";
import { stampBlocksFromClock } from "./follow-clock";
import { sandboxHardhatConfig } from "./hardhat.config";
import { CHAIN_KEYS } from "./roles";
import type { SandboxChainKey } from "./types";

const CONFIG_PATH = fileURLToPath(new URL("./hardhat.config.ts", import.meta.url));

export interface SandboxRpcServers {
  rpcUrls: Record<SandboxChainKey, string>;
  close(): Promise<void>;
}

/**
 * Starts one EDR network per sandbox chain inside this process, each behind Hardhat's own HTTP/WebSocket
 * JSON-RPC server (the one `hardhat node` runs), created through the public
 * `hre.network.createServer`. With a `clock`, the networks start at its time and stamp every block
 * they mine from it (stampBlocksFromClock); without one they keep wall time.
 */
export async function startSandboxRpcServers(
  host: string,
  ports: Partial<Record<SandboxChainKey, ListenPort>>,
  clock?: Clock,
  chainIds: Partial<Record<SandboxChainKey, number>> = {},
): Promise<SandboxRpcServers> {
  const hre = await createHardhatRuntimeEnvironment(
    sandboxHardhatConfig(clock?.now(), chainIds),
    { config: CONFIG_PATH },
    PROJECT_ROOT,
  );
  if (clock) stampBlocksFromClock(hre, clock);
  // Settle every start before judging, so that a failure never leaves a sibling server listening.
  const outcomes = await Promise.allSettled(
    CHAIN_KEYS.map(async (key) => {
      // Hardhat's server has no error listener: a taken port would crash the process instead of
      // failing this call, so a port is probed first (a preferred one gives way to any free one).
      const wish = ports[key];
      if (typeof wish === "number" && wish !== 0 && !(await portIsFree(host, wish))) {
        throw new Error(`the ${key} chain cannot listen on ${host}:${wish} (taken or not permitted)`);
      }
      const wanted = await portToBind(host, wish);
      const server = await hre.network.createServer({ network: key }, host, wanted);
      const { port } = await server.listen();
      return { key, server, url: `http://${host.includes(":") ? `[${host}]` : host}:${port}` };
    }),
  );
  const started = outcomes.flatMap((outcome) => (outcome.status === "fulfilled" ? [outcome.value] : []));
  const close = async () => {
    await Promise.all(started.splice(0).map(({ server }) => server.close()));
  };

  const failure = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === "rejected");
  if (failure) {
    await close();
    throw failure.reason;
  }
  const rpcUrls = Object.fromEntries(started.map(({ key, url }) => [key, url])) as Record<
    SandboxChainKey,
    string
  >;
  return { rpcUrls, close };
}
