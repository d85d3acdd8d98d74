import { type Account, erc20Abi, type Hex } from "viem";
import { type SandboxChain, sandboxPublicClient, sandboxWalletClient } from "../../dev/chains";

/** A contract address the chain must have; the test fails loudly when it is missing. */
export function addressOf(chain: SandboxChain, key: keyof SandboxChain["contracts"]): Hex {
  const address = chain.contracts[key];
  if (!address) throw new Error(`${chain.role} has no ${key}`);
  return address;
}

/** Waits for a sent transaction and insists it succeeded; its receipt. */
export async function mined(chain: SandboxChain, sent: Promise<Hex>) {
  const receipt = await sandboxPublicClient(chain).waitForTransactionReceipt({ hash: await sent });
  if (receipt.status !== "success") throw new Error(`transaction ${receipt.transactionHash} reverted`);
  return receipt;
}

export function balanceOf(chain: SandboxChain, token: Hex, owner: Hex): Promise<bigint> {
  return sandboxPublicClient(chain).readContract({
    address: token,
    abi: erc20Abi,
    functionName: "balanceOf",
    args: [owner],
  });
}

export function totalSupplyOf(chain: SandboxChain, token: Hex): Promise<bigint> {
  return sandboxPublicClient(chain).readContract({
    address: token,
    abi: erc20Abi,
    functionName: "totalSupply",
  });
}

export async function approve(chain: SandboxChain, owner: Account, token: Hex, spender: Hex, amount: bigint) {
  await mined(
    chain,
    sandboxWalletClient(chain, owner).writeContract({
      address: token,
      abi: erc20Abi,
      functionName: "approve",
      args: [spender, amount],
    }),
  );
}

/** The time of a transaction's block, as a Date: where a test's manual clock starts. */
export async function blockTimeOf(chain: SandboxChain, blockNumber: bigint): Promise<Date> {
  const block = await sandboxPublicClient(chain).getBlock({ blockNumber });
  return new Date(Number(block.timestamp) * 1000);
}
