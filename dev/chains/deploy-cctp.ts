import { getContract, pad } from "viem";
import { sandboxTokenAbi, sandboxTokenMessengerV2Abi } from "./abis";
import { deploySandboxToken } from "./deploy-token";
import type { ChainDeployer } from "./deployer";
import { USDC_BURN_LIMIT_PER_MESSAGE } from "./tokens";
import type { Address } from "./types";

export interface CctpChainContracts {
  usdc: Address;
  tokenMessenger: Address;
}

/** USDC and a TokenMessengerV2 that burns it: what the source chain has, and the intermediate too. */
export async function deployCctpContracts(
  deployer: ChainDeployer,
  cctpDomain: number,
): Promise<CctpChainContracts> {
  const usdc = await deploySandboxToken(deployer, "usdc");
  const tokenMessenger = await deployer.deploy("SandboxTokenMessengerV2", [cctpDomain]);
  const messenger = getContract({
    address: tokenMessenger,
    abi: sandboxTokenMessengerV2Abi,
    client: deployer.walletClient,
  });
  await deployer.confirm(
    messenger.write.setMaxBurnAmountPerMessage([usdc, USDC_BURN_LIMIT_PER_MESSAGE]),
    "support USDC on the messenger",
  );
  return { usdc, tokenMessenger };
}

/** Registers `remote` as the TokenMessenger of `remoteDomain`; DepositForBurn then names it. */
export async function linkRemoteMessenger(
  deployer: ChainDeployer,
  localMessenger: Address,
  remoteDomain: number,
  remoteMessenger: Address,
): Promise<void> {
  const messenger = getContract({
    address: localMessenger,
    abi: sandboxTokenMessengerV2Abi,
    client: deployer.walletClient,
  });
  await deployer.confirm(
    messenger.write.addRemoteTokenMessenger([remoteDomain, pad(remoteMessenger, { size: 32 })]),
    `link the messenger of domain ${remoteDomain}`,
  );
}

/**
 * Lets the messenger complete burns the way Circle's Forwarding Service does (`forwardMint`): it
 * mints this chain's USDC, so it becomes one of its minters. Only the intermediate chain needs it.
 */
export async function enableForwardedMints(
  deployer: ChainDeployer,
  contracts: CctpChainContracts,
): Promise<void> {
  const client = deployer.walletClient;
  const messenger = getContract({
    address: contracts.tokenMessenger,
    abi: sandboxTokenMessengerV2Abi,
    client,
  });
  const usdc = getContract({ address: contracts.usdc, abi: sandboxTokenAbi, client });
  await deployer.confirm(messenger.write.setLocalMintToken([contracts.usdc]), "let the messenger mint USDC");
  await deployer.confirm(
    usdc.write.setMinter([contracts.tokenMessenger, true]),
    "make the messenger a minter",
  );
}
