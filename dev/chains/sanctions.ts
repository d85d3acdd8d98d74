import { createTestClient, http, pad } from "viem";
import { CHAINALYSIS_SANCTIONS_ORACLE } from "../../lib/kernel/chain/abis";
import type { CompiledContracts } from "./compile";
import { sandboxOperator } from "./operator";
import type { Address, SandboxChainKey, SandboxChainsOptions } from "./types";

/** Where a chain's oracle stand-in goes: the option's address, else Chainalysis's usual one. */
export function sanctionsOracleOf(options: SandboxChainsOptions, key: SandboxChainKey): Address {
  return options.sanctionsOracles?.[key] ?? CHAINALYSIS_SANCTIONS_ORACLE;
}

/**
 * Puts the sanctions-oracle stand-in's code at the oracle's own address, owned by the sandbox
 * operator (slot 0, as OpenZeppelin v4's Ownable keeps it), so the operator lists addresses as
 * Chainalysis does. Code and storage are set, not deployed: no operator nonce moves, so no other
 * contract's address changes.
 */
export async function placeSanctionsOracle(
  rpcUrl: string,
  compiled: CompiledContracts,
  address: Address,
): Promise<Address> {
  const client = createTestClient({ mode: "hardhat", transport: http(rpcUrl) });
  await client.setCode({ address, bytecode: compiled.SandboxSanctionsList.deployedBytecode });
  await client.setStorageAt({ address, index: 0, value: pad(sandboxOperator.address) });
  return address;
}
