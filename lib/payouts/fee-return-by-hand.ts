import { and, eq, isNull } from "drizzle-orm";
import { erc20Abi, getAbiItem, type Hex } from "viem";
import { brebFeeReturns, brebPayouts } from "../../schema";
import { receiptOrUndefined } from "../kernel/chain/receipt";
import type { ConfiguredChain } from "../kernel/chain/registry";
import type { ServiceContext } from "../kernel/context";
import { notePayout } from "./payout-records";
import type { PayoutRow } from "./payout-view";

/** What one eth_getLogs asks for at most: RPC providers refuse wider ranges. */
const LOG_RANGE_BLOCKS = 2_000n;

/**
 * A fee the operator returned by hand from the fee wallet while the service could not sign (no key
 * then), looked for before the service signs one, so setting the key later never pays it twice: a
 * Transfer of the payout's token from the fee wallet to the payout's wallet of exactly the fee,
 * mined after the refund, that neither another payout's return nor the service's own signed returns
 * name. The fee wallet is the service's alone and sends only fees and their returns, so such a
 * Transfer is the service's return to that user; recorded as this payout's, once. True when it was.
 */
export async function recordReturnByHand(
  ctx: ServiceContext,
  chain: ConfiguredChain,
  feeWallet: Hex,
  payout: PayoutRow,
): Promise<boolean> {
  if (!payout.refundTxHash) return false;
  const refund = await receiptOrUndefined(chain.client, payout.refundTxHash as Hex);
  if (!refund) return false;
  const latest = await chain.client.getBlockNumber();
  for (let from = refund.blockNumber; from <= latest; from += LOG_RANGE_BLOCKS) {
    const to = from + LOG_RANGE_BLOCKS - 1n < latest ? from + LOG_RANGE_BLOCKS - 1n : latest;
    const logs = await chain.client.getLogs({
      address: payout.tokenAddress as Hex,
      event: getAbiItem({ abi: erc20Abi, name: "Transfer" }),
      args: { from: feeWallet, to: payout.userAddress as Hex },
      fromBlock: from,
      toBlock: to,
    });
    for (const log of logs) {
      if (log.args.value !== payout.serviceFee || !log.transactionHash) continue;
      const hash = log.transactionHash.toLowerCase();
      const [named] = await ctx.db
        .select({ id: brebPayouts.id })
        .from(brebPayouts)
        .where(eq(brebPayouts.feeReturnTxHash, hash))
        .limit(1);
      const [signed] = await ctx.db
        .select({ id: brebFeeReturns.id })
        .from(brebFeeReturns)
        .where(eq(brebFeeReturns.hash, hash))
        .limit(1);
      if (named || signed) continue;
      return ctx.db.transaction(async (tx) => {
        const [marked] = await tx
          .update(brebPayouts)
          .set({ feeReturnTxHash: hash, updatedAt: ctx.clock.now() })
          .where(and(eq(brebPayouts.id, payout.id), isNull(brebPayouts.feeReturnTxHash)))
          .returning({ id: brebPayouts.id });
        if (!marked) return false;
        await notePayout(ctx, tx, payout.id, {
          note: "fee_returned",
          detail: `the service's fee, ${payout.serviceFee} (atomic units), returned by hand from the fee wallet ${feeWallet} (Transfer log ${log.logIndex}); not paid again`,
          txHash: hash,
        });
        return true;
      });
    }
  }
  return false;
}
