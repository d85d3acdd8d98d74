import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { runInNewContext } from "node:vm";
import type { Abi, Hex } from "viem";

/**
 * Mento's own compiled contracts, as the protocol publishes them in `@mento-protocol/mento-core-ts`
 * 0.2.3 (the last release that ships creation bytecode; later ones carry ABIs only). Each is the
 * package's typechain factory for ethers v5, which the service does not use: the factory module is
 * evaluated with a stand-in for the three ethers names it touches while loading, and only its static
 * `abi` and `bytecode` are kept. Nothing of ethers runs.
 */
export type MentoContractName =
  | "Broker"
  | "BiPoolManager"
  | "ConstantSumPricingModule"
  | "BreakerBox"
  | "Reserve"
  | "MedianDeltaBreaker";

export interface MentoArtifact {
  abi: Abi;
  bytecode: Hex;
}

const PACKAGE = "@mento-protocol/mento-core-ts";
const loaded = new Map<MentoContractName, MentoArtifact>();

export function mentoArtifact(name: MentoContractName): MentoArtifact {
  const cached = loaded.get(name);
  if (cached) return cached;
  const require = createRequire(import.meta.url);
  const file = require.resolve(`${PACKAGE}/dist/factories/${name}__factory.js`);
  const module = { exports: {} as Record<string, unknown> };
  const ethers = { ContractFactory: class {}, Contract: class {}, utils: { Interface: class {} } };
  runInNewContext(readFileSync(file, "utf8"), {
    module,
    exports: module.exports,
    require: (id: string) => {
      if (id === "ethers") return ethers;
      throw new Error(`${name}__factory requires ${id}, which the loader does not provide`);
    },
    RegExp,
  });
  const factory = module.exports[`${name}__factory`] as { abi?: Abi; bytecode?: string } | undefined;
  if (!factory?.abi || !factory.bytecode?.startsWith("0x") || factory.bytecode.length < 4) {
    throw new Error(`${PACKAGE} has no compiled ${name} (abi and bytecode)`);
  }
  if (factory.bytecode.includes("__$")) throw new Error(`${name}'s bytecode needs a library linked`);
  const artifact = { abi: factory.abi, bytecode: factory.bytecode as Hex };
  loaded.set(name, artifact);
  return artifact;
}
