import { createHash } from "node:crypto";
import { readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Abi, Hex } from "viem";
import { localDataDir } from "../paths";

/** The sandbox contracts, compiled: what a deployment needs from each. */
interface CompiledContract {
  abi: Abi;
  bytecode: Hex;
  /** The code a deployment leaves: what the sandbox puts at a protocol's own address. */
  deployedBytecode: Hex;
}

export type SandboxContractName =
  | "SandboxToken"
  | "SandboxTokenMessengerV2"
  | "SandboxRouter"
  | "SandboxRelayReceiver"
  | "PayoutDepositor"
  | "SandboxMentoRouter"
  | "SandboxSmartWallet"
  | "SandboxSmartWalletFactory"
  | "SandboxSortedOracles"
  | "SandboxMessageTransmitterV2"
  | "SandboxSanctionsList";

export type CompiledContracts = Record<SandboxContractName, CompiledContract>;

const CONTRACTS_DIR = fileURLToPath(new URL("./contracts/", import.meta.url));
const CONTRACT_NAMES: SandboxContractName[] = [
  "SandboxToken",
  "SandboxTokenMessengerV2",
  "SandboxRouter",
  "SandboxRelayReceiver",
  "PayoutDepositor",
  "SandboxMentoRouter",
  "SandboxSmartWallet",
  "SandboxSmartWalletFactory",
  "SandboxSortedOracles",
  "SandboxMessageTransmitterV2",
  "SandboxSanctionsList",
];

// Cancun is what EDR runs by default and what the production chains (Celo included) accept.
const COMPILER_SETTINGS = {
  optimizer: { enabled: true, runs: 200 },
  evmVersion: "cancun",
  outputSelection: { "*": { "*": ["abi", "evm.bytecode.object", "evm.deployedBytecode.object"] } },
} as const;

/** The slice of solc-js we use; its own typings are `any`. */
interface SolcJs {
  version(): string;
  compile(input: string): string;
}

interface SolcOutput {
  errors?: Array<{ severity: "error" | "warning" | "info"; formattedMessage: string }>;
  contracts?: Record<
    string,
    Record<string, { abi: Abi; evm: { bytecode: { object: string }; deployedBytecode: { object: string } } }>
  >;
}

/** The solc-js version, read without loading the (slow) compiler itself. */
function solcVersion(): string {
  const require = createRequire(import.meta.url);
  const pkg = require("solc/package.json") as { version: string };
  return pkg.version;
}

async function readSources(): Promise<Record<string, { content: string }>> {
  const files = (await readdir(CONTRACTS_DIR)).filter((file) => file.endsWith(".sol")).sort();
  const sources: Record<string, { content: string }> = {};
  for (const file of files) sources[file] = { content: await readFile(join(CONTRACTS_DIR, file), "utf8") };
  return sources;
}

/**
 * Compiles dev/chains/contracts with solc-js (offline: no compiler download) and caches the result
 * under .data/chains, keyed by the sources, the settings and the compiler version, so a restart with
 * unchanged sources skips solc entirely.
 */
export async function compileSandboxContracts(): Promise<CompiledContracts> {
  const sources = await readSources();
  const version = solcVersion();
  const key = createHash("sha256")
    .update(JSON.stringify({ sources, settings: COMPILER_SETTINGS, version }))
    .digest("hex")
    .slice(0, 16);
  const cacheFile = join(localDataDir("chains"), `compiled-${key}.json`);

  const cached = await readFile(cacheFile, "utf8").catch(() => undefined);
  if (cached !== undefined) return JSON.parse(cached) as CompiledContracts;

  const compiled = await runSolc(sources);
  // Write then rename, so a concurrent start never reads half a file.
  const partial = `${cacheFile}.${process.pid}.tmp`;
  await writeFile(partial, JSON.stringify(compiled));
  await rename(partial, cacheFile);
  await pruneStaleCaches(cacheFile);
  return compiled;
}

/** Compilations of earlier sources are never read again. */
async function pruneStaleCaches(current: string): Promise<void> {
  const dir = dirname(current);
  const stale = (await readdir(dir)).filter(
    (file) => /^compiled-[0-9a-f]+\.json$/.test(file) && join(dir, file) !== current,
  );
  await Promise.all(stale.map((file) => rm(join(dir, file), { force: true })));
}

async function runSolc(sources: Record<string, { content: string }>): Promise<CompiledContracts> {
  const solc = ((await import("solc")) as { default: SolcJs }).default;
  const input = { language: "Solidity", sources, settings: COMPILER_SETTINGS };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as SolcOutput;

  const errors = (output.errors ?? []).filter((entry) => entry.severity === "error");
  if (errors.length > 0) {
    throw new Error(`solc ${solc.version()} failed:\n${errors.map((e) => e.formattedMessage).join("\n")}`);
  }

  const compiled: Partial<CompiledContracts> = {};
  for (const name of CONTRACT_NAMES) {
    const artifact = output.contracts?.[`${name}.sol`]?.[name];
    if (!artifact) throw new Error(`solc produced no ${name}`);
    compiled[name] = {
      abi: artifact.abi,
      bytecode: `0x${artifact.evm.bytecode.object}`,
      deployedBytecode: `0x${artifact.evm.deployedBytecode.object}`,
    };
  }
  return compiled as CompiledContracts;
}
