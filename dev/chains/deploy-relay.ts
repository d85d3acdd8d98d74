import { getContract } from "viem";
import { sandboxTokenAbi } from "./abis";
import type { ChainDeployer } from "./deployer";
import type { Address } from "./types";

/**
 * The paying half of the sandbox aggregator: a receiver that pays routes out in `token` (USDm on the
 * destination chain; USDC on the intermediate chain, for a return's way back), so it becomes one of
 * that token's minters.
 */
export async function deployRelayReceiver(deployer: ChainDeployer, token: Address): Promise<Address> {
  const relayReceiver = await deployer.deploy("SandboxRelayReceiver", [token]);
  const contract = getContract({ address: token, abi: sandboxTokenAbi, client: deployer.walletClient });
  await deployer.confirm(contract.write.setMinter([relayReceiver, true]), "make the relay receiver a minter");
  return relayReceiver;
}

/**
 * Lets the relay receiver pay a route in `token` too (a partial delivery, as LI.FI's PARTIAL): one
 * more minter role, given after every deployment of the chain so no address moves.
 */
export async function letRelayReceiverPayIn(deployer: ChainDeployer, relayReceiver: Address, token: Address) {
  const contract = getContract({ address: token, abi: sandboxTokenAbi, client: deployer.walletClient });
  await deployer.confirm(
    contract.write.setMinter([relayReceiver, true]),
    "let the relay receiver pay in another token",
  );
}
