import { erc20Abi, type Hex, parseEventLogs, type TransactionReceipt } from "viem";
import { chainErrorText } from "../kernel/chain/failure";
import { receiptOrUndefined } from "../kernel/chain/receipt";
import type { ConfiguredChain } from "../kernel/chain/registry";
import type { PayoutRow } from "./payout-view";

/**
 * What the payout chain shows of a refund the provider named: `proven` (the Transfer that paid the
 * user, by its log index, and what it paid), `waiting` (not there yet, or the chain did not answer:
 * asked again) or `unproven` (mined, but not this payout's refund: for good, for this hash).
 */
export type RefundProof =
  | { kind: "proven"; txHash: string; logIndex: number; amount: bigint; from: string }
  | { kind: "waiting"; why: string; cause?: string }
  | { kind: "unproven"; why: string };

const TX_HASH = /^0x[0-9a-fA-F]{64}$/;

/**
 * Reads `txHash` on the payout chain as this payout's refund. It must have succeeded, have the chain's
 * confirmations, come after the payout's deposit (nothing mined before it can return it), and hold an
 * ERC-20 Transfer log of the payout's own token contract to the payout's wallet that no other payout's
 * refund took (`taken`: their log indexes in this transaction) and that is not the fee wallet's nor the
 * user's own. Of those, the one paying exactly what is owed, else the first: the log index, not the
 * amount, is what the payout records, so a batch refunding two payouts to one wallet proves each by
 * its own log.
 */
export async function proveRefund(
  chain: ConfiguredChain,
  payout: PayoutRow,
  txHash: string,
  taken: readonly number[],
): Promise<RefundProof> {
  if (!TX_HASH.test(txHash)) return { kind: "unproven", why: "it is not a transaction hash" };
  try {
    return await readRefund(chain, payout, txHash.toLowerCase() as Hex, taken);
  } catch (error) {
    // An RPC that fails is no verdict on the refund: the payout waits and is asked about again.
    return { kind: "waiting", why: "the payout chain did not answer", cause: chainErrorText(error) };
  }
}

async function readRefund(
  chain: ConfiguredChain,
  payout: PayoutRow,
  hash: Hex,
  taken: readonly number[],
): Promise<RefundProof> {
  const receipt = await receiptOrUndefined(chain.client, hash);
  if (!receipt) {
    const sent = await chain.client.getTransaction({ hash }).then(
      () => true,
      () => false,
    );
    return { kind: "waiting", why: sent ? "it is not mined yet" : "the chain does not know it yet" };
  }
  const latest = await chain.client.getBlockNumber();
  const confirmations = Number(latest - receipt.blockNumber + 1n);
  if (confirmations < chain.confirmations) {
    return { kind: "waiting", why: `it does not have the chain's ${chain.confirmations} confirmations yet` };
  }
  if (receipt.status !== "success") return { kind: "unproven", why: "it reverted" };
  const deposit = payout.depositTxHash
    ? await receiptOrUndefined(chain.client, payout.depositTxHash as Hex)
    : undefined;
  if (!deposit || !minedAfter(receipt, deposit)) {
    return {
      kind: "unproven",
      why: "it was not mined after the payout's deposit (a refund cannot come before it)",
    };
  }
  const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
  const transfers = parseEventLogs({ abi: erc20Abi, eventName: "Transfer", logs: receipt.logs });
  const toWallet = transfers.filter((log) => same(log.args.to, payout.userAddress));
  const ofToken = toWallet.filter((log) => same(log.address, payout.tokenAddress));
  if (ofToken.length === 0) {
    return {
      kind: "unproven",
      why:
        toWallet.length > 0
          ? `its Transfers to the wallet are of another token contract (${toWallet[0]?.address}), not ${payout.tokenAddress}`
          : `it holds no Transfer of ${payout.tokenAddress} to the wallet ${payout.userAddress}`,
    };
  }
  // The provider refunds from the deposit address it quoted, where the deposit went: any other
  // sender (a mint, a settlement's delivery to the same wallet, a stranger) is not the provider's refund.
  const fromProvider = ofToken.filter((log) => same(log.args.from, payout.depositAddress));
  if (fromProvider.length === 0) {
    return {
      kind: "unproven",
      why: `its Transfers to the wallet are not from the provider's deposit address ${payout.depositAddress}`,
    };
  }
  const candidates = fromProvider.filter((log) => !taken.includes(log.logIndex));
  const refund = candidates.find((log) => log.args.value === payout.providerAmount) ?? candidates[0];
  if (!refund) {
    return { kind: "unproven", why: "its Transfers to the wallet are another payout's refund" };
  }
  return {
    kind: "proven",
    txHash: hash,
    logIndex: refund.logIndex,
    amount: refund.args.value,
    from: refund.args.from,
  };
}

/** Later in the chain: a later block, or later in the same block. */
function minedAfter(refund: TransactionReceipt, deposit: TransactionReceipt): boolean {
  return (
    refund.blockNumber > deposit.blockNumber ||
    (refund.blockNumber === deposit.blockNumber && refund.transactionIndex > deposit.transactionIndex)
  );
}
