import { privateKeyToAccount } from "viem/accounts";
import { oracleAnswersOf } from "../compliance";
import { sanctionsListAbi } from "../kernel/chain/abis";
import { EVM_ADDRESS_RULE, parseEvmAddress } from "../kernel/chain/address";
import type { ServiceContext } from "../kernel/context";
import { ApiError } from "../kernel/errors/api-error";
import { assertSandbox } from "./network";
import { operatorWallet } from "./operator";
import { oneOperatorTransactionAtATime } from "./operator-queue";

export interface SanctionsListing {
  address: `0x${string}`;
  listed: boolean;
  /** Each chain whose oracle stand-in now answers `listed` for the address, with its transaction. */
  chains: Array<{ chainId: number; oracle: `0x${string}`; txHash: `0x${string}` }>;
}

/**
 * Lists (or, with `listed: false`, unlists) an address on the sanctions-oracle stand-in of every
 * sandbox chain, as Chainalysis changes its list: the operator's `addToSanctionsList` transactions.
 * The service then screens the address as it would a sanctioned one (this isolate forgets its
 * earlier answers for it at once).
 */
export async function setSandboxSanction(
  ctx: ServiceContext,
  request: { address: string; listed?: boolean },
): Promise<SanctionsListing> {
  assertSandbox(ctx);
  const address = parseEvmAddress(request.address);
  if (!address) {
    throw new ApiError("INVALID_REQUEST", {
      problems: [{ field: "body.address", code: "INVALID_REQUEST", problem: EVM_ADDRESS_RULE }],
    });
  }
  const operatorKey = ctx.config.SANDBOX_OPERATOR_KEY;
  const chains = ctx.chains.chains.filter((chain) => chain.contracts.sanctionsOracle);
  if (!operatorKey || chains.length === 0) {
    throw new ApiError("PROVIDER_UNAVAILABLE", { detail: "The sandbox chains are not running." });
  }
  const listed = request.listed ?? true;
  const operator = privateKeyToAccount(operatorKey as `0x${string}`);
  const changed = await Promise.all(
    chains.map(async (chain) => {
      const oracle = chain.contracts.sanctionsOracle as `0x${string}`;
      const txHash = await oneOperatorTransactionAtATime(chain.rpcUrl, async () => {
        const hash = await operatorWallet(chain, operator).writeContract({
          address: oracle,
          abi: sanctionsListAbi,
          functionName: listed ? "addToSanctionsList" : "removeFromSanctionsList",
          args: [[address]],
        });
        const receipt = await chain.client.waitForTransactionReceipt({ hash, timeout: 15_000 });
        if (receipt.status !== "success") throw new Error(`sanctions list change ${hash} reverted`);
        return hash;
      });
      return { chainId: chain.chainId, oracle, txHash };
    }),
  );
  oracleAnswersOf(ctx).forget(address);
  ctx.log.info("sandbox sanctions list changed", { address, listed });
  return { address, listed, chains: changed };
}
