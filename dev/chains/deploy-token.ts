import type { ChainDeployer } from "./deployer";
import { SANDBOX_TOKENS, type SandboxTokenKey } from "./tokens";
import type { Address } from "./types";

export async function deploySandboxToken(deployer: ChainDeployer, key: SandboxTokenKey): Promise<Address> {
  const { name, symbol, decimals } = SANDBOX_TOKENS[key];
  return deployer.deploy("SandboxToken", [name, symbol, decimals]);
}
