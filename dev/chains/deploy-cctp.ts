import { getContract, pad } from "viem";
import { CCTP_MESSAGE_VERSION } from "../../lib/kernel/chain/cctp-message";
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
 * Gives the chain Circle's receive side: a MessageTransmitterV2 that trusts `attester` (the sandbox's
 * Iris stand-in signs with it), which hands each attested message once to the messenger, which mints
 * this chain's USDC (so it becomes one of its minters). Settlements mint on the intermediate chain and returns on the source chain. The
 * transmitter is deployed after everything else of the chain, so the addresses before it stay put.
 */
export async function enableCctpReceive(
  deployer: ChainDeployer,
  contracts: CctpChainContracts,
  cctpDomain: number,
  attester: Address,
): Promise<{ messageTransmitter: Address }> {
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
  const messageTransmitter = await deployer.deploy("SandboxMessageTransmitterV2", [
    cctpDomain,
    CCTP_MESSAGE_VERSION,
    attester,
  ]);
  await deployer.confirm(
    messenger.write.setLocalMessageTransmitter([messageTransmitter]),
    "let the transmitter hand the messenger its messages",
  );
  return { messageTransmitter };
}

/**
 * The sandbox aggregator's router gives a refunded route's input back by minting it: one of the
 * input token's minters (USDC on the intermediate chain, USDm on the destination chain).
 */
export async function letRouterRefund(
  deployer: ChainDeployer,
  router: Address,
  input: Address,
): Promise<void> {
  const token = getContract({ address: input, abi: sandboxTokenAbi, client: deployer.walletClient });
  await deployer.confirm(token.write.setMinter([router, true]), "let the router refund its input");
}
