import { and, eq, inArray, max } from "drizzle-orm";
import { type Account, encodeFunctionData, erc20Abi, type Hex, keccak256, parseEventLogs } from "viem";
import { brebFeeReturns } from "../../schema";
import { chainErrorText } from "../kernel/chain/failure";
import { receiptOrUndefined } from "../kernel/chain/receipt";
import type { ConfiguredChain } from "../kernel/chain/registry";
import { isUniqueViolation } from "../kernel/db/errors";
import { newId } from "../kernel/ids";
import type { PayoutServices } from "./breb-provider";
import { recordReturnByHand } from "./fee-return-by-hand";
import {
  type FeeReturnRow,
  liveReturn,
  recordReturned,
  setReturnState,
  UNMINED,
  withAccountLock,
} from "./fee-return-records";
import { notePayout } from "./payout-records";
import type { PayoutRow } from "./payout-view";
import { owesFee } from "./payout-work";

/** `unable`: nobody can sign the return here (no fee wallet key): the operator is told past the deadline. */
export type FeeReturnOutcome = "returned" | "waiting" | "unable";

/**
 * The service's fee on a payout the provider refunded goes back to the user: the user got nothing, so
 * the service keeps nothing (docs/payouts.md, Refunds). The fee wallet sends `serviceFee` of the
 * payout's token to the payout's wallet on the payout chain, at most once: the transaction is
 * recorded (breb_fee_returns) before it is broadcast, signed under the account's lock at the nonce
 * after the last one recorded, and a later look watches the recorded one (broadcasting it again if
 * the chain lost it) instead of sending another. A version whose nonce provably went to another
 * transaction, or that reverted, is set aside and the return signed afresh. Done once the chain
 * shows its Transfer with the chain's confirmations.
 */
export async function returnFee(ctx: PayoutServices, payout: PayoutRow): Promise<FeeReturnOutcome> {
  if (!owesFee(payout)) return "returned";
  const signer = ctx.providers.payouts.feeWallet;
  const chain = ctx.chains.byRole("destination");
  if (!signer || !chain || chain.chainId !== payout.chainId) return "unable";
  const live = await liveReturn(ctx.db, payout.id);
  // Returned by hand while no key was set: recorded, never paid again.
  if (!live && (await recordReturnByHand(ctx, chain, signer.address, payout))) return "returned";
  const row = live ?? (await signReturn(ctx, chain, signer, payout));
  if (typeof row === "string") {
    ctx.log.warn("the fee wallet cannot return a refunded payout's fee now; trying again", {
      payoutId: payout.id,
      reason: row,
    });
    return "waiting";
  }
  return watchReturn(ctx, chain, signer, payout, row);
}

/** Signs and records the return, or says why the chain would not take it now. */
async function signReturn(
  ctx: PayoutServices,
  chain: ConfiguredChain,
  signer: Account,
  payout: PayoutRow,
): Promise<FeeReturnRow | string> {
  if (!signer.signTransaction) return "the fee wallet's signer cannot sign transactions";
  const from = signer.address.toLowerCase();
  const token = payout.tokenAddress as Hex;
  const data = encodeFunctionData({
    abi: erc20Abi,
    functionName: "transfer",
    args: [payout.userAddress as Hex, payout.serviceFee],
  });
  try {
    return await withAccountLock(ctx, chain.chainId, from, async (tx) => {
      const again = await liveReturn(tx, payout.id);
      if (again) return again;
      // A fee wallet short of the token or of gas signs nothing: no fee is spent on a certain revert.
      const gas = await chain.client
        .estimateGas({ account: signer.address, to: token, data })
        .catch((error: unknown) => new Error(chainErrorText(error)));
      if (gas instanceof Error) return `the chain would not take it (${gas.message})`;
      const [pending, fees, [recorded]] = await Promise.all([
        chain.client.getTransactionCount({ address: signer.address, blockTag: "pending" }),
        chain.client.estimateFeesPerGas(),
        tx
          .select({ nonce: max(brebFeeReturns.nonce) })
          .from(brebFeeReturns)
          .where(
            and(
              eq(brebFeeReturns.chainId, chain.chainId),
              eq(brebFeeReturns.fromAddress, from),
              inArray(brebFeeReturns.status, UNMINED),
            ),
          ),
      ]);
      // The node's pending count does not see a return recorded but not broadcast yet (a crashed job).
      const nonce = Math.max(pending, (recorded?.nonce ?? -1) + 1);
      const raw = await signer.signTransaction?.({
        chainId: chain.chainId,
        type: "eip1559",
        to: token,
        data,
        value: 0n,
        nonce,
        gas: (gas * 12n) / 10n,
        maxFeePerGas: fees.maxFeePerGas,
        maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
      });
      if (!raw) throw new Error("the fee wallet's signer signed nothing");
      const now = ctx.clock.now();
      const [row] = await tx
        .insert(brebFeeReturns)
        .values({
          id: newId("bfr", ctx.clock),
          payoutId: payout.id,
          chainId: chain.chainId,
          fromAddress: from,
          toAddress: payout.userAddress.toLowerCase(),
          tokenAddress: token.toLowerCase(),
          amount: payout.serviceFee,
          nonce,
          hash: keccak256(raw),
          raw,
          status: "signed",
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      if (!row) throw new Error("the fee return was not recorded");
      await notePayout(ctx, tx, payout.id, {
        note: "fee_return_sent",
        detail: `the service's fee, ${row.amount} (atomic units), sent back from the fee wallet ${from} (nonce ${nonce})`,
        txHash: row.hash,
      });
      return row;
    });
  } catch (error) {
    // Another job recorded this payout's return first: that one is watched.
    if (!isUniqueViolation(error)) throw error;
    return (await liveReturn(ctx.db, payout.id)) ?? "another job is recording it";
  }
}

async function watchReturn(
  ctx: PayoutServices,
  chain: ConfiguredChain,
  signer: Account,
  payout: PayoutRow,
  row: FeeReturnRow,
): Promise<FeeReturnOutcome> {
  const hash = row.hash as Hex;
  let receipt = await receiptOrUndefined(chain.client, hash);
  if (!receipt) {
    const refused = await broadcast(chain, row);
    if (refused && /nonce too low|nonce has already been used/i.test(refused)) {
      // Taken for good by a transaction that is not this one (mined, as receipts are read again):
      // set aside, and the return is signed afresh on the next look.
      if (!(await nonceFinal(chain, signer, row.nonce))) return "waiting";
      if (!(await receiptOrUndefined(chain.client, hash))) {
        await setReturnState(ctx, row, "dropped");
        ctx.log.warn("a fee return's nonce went to another transaction; signing it again", {
          payoutId: payout.id,
          hash,
        });
        return "waiting";
      }
    } else if (refused) {
      ctx.log.warn("broadcasting a fee return failed; trying again", { payoutId: payout.id, hash, refused });
      return "waiting";
    } else {
      await setReturnState(ctx, row, "sent");
    }
    receipt = await receiptOrUndefined(chain.client, hash);
    if (!receipt) return "waiting";
  }
  const latest = await chain.client.getBlockNumber();
  if (latest - receipt.blockNumber + 1n < BigInt(Math.max(1, chain.confirmations))) return "waiting";
  const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
  const transfer =
    receipt.status === "success"
      ? parseEventLogs({ abi: erc20Abi, eventName: "Transfer", logs: receipt.logs }).find(
          (log) =>
            same(log.address, row.tokenAddress) &&
            same(log.args.from, row.fromAddress) &&
            same(log.args.to, row.toAddress) &&
            log.args.value === row.amount,
        )
      : undefined;
  if (!transfer) {
    await setReturnState(ctx, row, "reverted");
    ctx.log.error("a fee return moved nothing; it is signed again", { payoutId: payout.id, hash });
    return "waiting";
  }
  await recordReturned(ctx, payout, row, transfer.logIndex);
  ctx.log.info("refunded payout's fee returned", { payoutId: payout.id, hash });
  return "returned";
}

/** Sends the recorded bytes unless the chain knows them; the node's refusal, if any. */
async function broadcast(chain: ConfiguredChain, row: FeeReturnRow): Promise<string | undefined> {
  const known = await chain.client.getTransaction({ hash: row.hash as Hex }).then(
    () => true,
    () => false,
  );
  if (known) return undefined;
  const refused = await chain.client
    .sendRawTransaction({ serializedTransaction: row.raw as Hex })
    .then(() => undefined)
    .catch((error: unknown) => chainErrorText(error));
  return refused && /already known|already imported|known transaction/i.test(refused) ? undefined : refused;
}

/** Whether the account's transaction count, as of a block with the chain's confirmations, is past `nonce`. */
async function nonceFinal(chain: ConfiguredChain, signer: Account, nonce: number): Promise<boolean> {
  const latest = await chain.client.getBlockNumber();
  const final = latest - BigInt(Math.max(1, chain.confirmations)) + 1n;
  if (final < 0n) return false;
  const count = await chain.client.getTransactionCount({ address: signer.address, blockNumber: final });
  return count > nonce;
}
