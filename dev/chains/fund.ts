import { type Account, getContract, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { sandboxTokenAbi } from "./abis";
import { sandboxPublicClient, sandboxWalletClient } from "./clients";
import { sandboxOperator } from "./operator";
import type { Address, SandboxChain } from "./types";

/** Native gas a fresh wallet gets: plenty for any number of sandbox transactions. */
const FRESH_WALLET_GAS = parseEther("10");

/**
 * A new random wallet on `chain`, given gas and (optionally) tokens by the operator, the way a
 * partner's user would hold them: minted to the wallet by the token's owner.
 */
export async function fundFreshWallet(
  chain: SandboxChain,
  tokens: Array<{ token: Address; amount: bigint }> = [],
): Promise<Account> {
  const wallet = privateKeyToAccount(generatePrivateKey());
  const publicClient = sandboxPublicClient(chain);
  const operator = sandboxWalletClient(chain, sandboxOperator);
  const confirm = async (hash: Promise<`0x${string}`>) => {
    const receipt = await publicClient.waitForTransactionReceipt({ hash: await hash });
    if (receipt.status !== "success")
      throw new Error(`funding transaction ${receipt.transactionHash} reverted`);
  };
  await confirm(operator.sendTransaction({ to: wallet.address, value: FRESH_WALLET_GAS }));
  for (const { token, amount } of tokens) {
    const contract = getContract({ address: token, abi: sandboxTokenAbi, client: operator });
    await confirm(contract.write.mint([wallet.address, amount]));
  }
  return wallet;
}
