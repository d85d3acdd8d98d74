import { getContract } from "viem";
import { sandboxTokenAbi } from "./abis";
import type { ChainDeployer } from "./deployer";
import type { Address } from "./types";

/**
 * The destination half of the sandbox aggregator: a receiver that pays routes out in `token` (USDm),
 * so it becomes one of that token's minters.
 */
export async function deployRelayReceiver(deployer: ChainDeployer, token: Address): Promise<Address> {
  const relayReceiver = await deployer.deploy("SandboxRelayReceiver", [token]);
  const contract = getContract({ address: token, abi: sandboxTokenAbi, client: deployer.walletClient });
  await deployer.confirm(contract.write.setMinter([relayReceiver, true]), "make the relay receiver a minter");
  return relayReceiver;
}
