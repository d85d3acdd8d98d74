import type { Account, Hex } from "viem";
import { receiptOrUndefined } from "../../kernel/chain/receipt";
import type { ConfiguredChain } from "../../kernel/chain/registry";
import { noteOnTimeline } from "../progress/state";
import { InFlight } from "./in-flight";
import { dropAll, liveOf, setStatus, settle, unminedRows, versionsOf } from "./records";
import { replace } from "./replace";
import type { PaymentContext, TransactionOutcome, TransactionRow } from "./types";

/**
 * Watches the account's oldest unmined transaction on the chain (rebroadcasting, replacing or
 * dropping as `watch` does), the one every later nonce waits on, and answers how many nonces are
 * still in flight. Any job does this for any order, so one order's crashed job never holds up the
 * others.
 */
export async function watchAccountQueue(
  ctx: PaymentContext,
  chain: ConfiguredChain,
  account: Account,
): Promise<number> {
  const queue = new InFlight(chain, await unminedRows(ctx.db, chain, account));
  const oldest = queue.oldest();
  if (!oldest) return 0;
  const outcome = await watch(ctx, chain, account, oldest);
  return outcome.state === "pending" ? queue.nonces : queue.nonces - 1;
}

/**
 * The chain's view of one payment's signed versions (one nonce). A mined version with the chain's
 * confirmations settles it (the others at its nonce can never be mined: dropped). While none is
 * mined, the live version is broadcast again if the chain does not know it, and replaced with
 * higher fees once it has waited SETTLEMENT_REPLACE_AFTER_SECONDS, or at once when a node refuses it
 * for its fees. If its nonce went, for good, to
 * a transaction that is none of them, every version is dropped and the order's timeline says so:
 * the payment is then signed again at a fresh nonce.
 */
export async function watch(
  ctx: PaymentContext,
  chain: ConfiguredChain,
  account: Account,
  versions: TransactionRow[],
): Promise<TransactionOutcome> {
  const required = BigInt(Math.max(1, chain.confirmations));
  let broadcast = false;
  for (let look = 0; look < 2; look++) {
    const latest = await chain.client.getBlockNumber();
    for (const version of versions) {
      const receipt = await receiptOrUndefined(chain.client, version.hash as Hex);
      if (!receipt) continue;
      if (latest - receipt.blockNumber + 1n < required) {
        await setStatus(ctx, version, "sent", ["signed"]);
        return { state: "pending", reason: `${version.hash} awaits ${required} confirmations` };
      }
      if (version.request?.cancels) {
        await settleCancelled(ctx, versions, version);
        return { state: "pending", reason: "its stale version was cancelled; it is priced and signed again" };
      }
      const state = receipt.status === "success" ? "success" : "reverted";
      await settle(ctx, versions, version, state);
      return { state, hash: version.hash as Hex, purpose: version.purpose };
    }
    if (broadcast) break;

    const current = liveOf(versions);
    if (!current) return { state: "pending", reason: "no live version" };
    const known = await chain.client.getTransaction({ hash: current.hash as Hex }).catch(() => undefined);
    if (known) break;
    const refused = await chain.client
      .sendRawTransaction({ serializedTransaction: current.raw as Hex })
      .then(() => undefined)
      .catch((error: unknown) => String(error));
    if (refused && /nonce too low|nonce has already been used/i.test(refused)) {
      if (!(await nonceFinal(chain, account, current.nonce))) {
        return { state: "pending", reason: `nonce ${current.nonce} is taken by a transaction not yet final` };
      }
      // The nonce is final, so whatever took it is mined. It may be this very payment, broadcast by
      // another job (or as a replacement) since the receipts above were read: every version recorded
      // at the nonce is read again, and only when none was mined is the nonce someone else's.
      const atNonce = await versionsOf(ctx.db, chain, account, current);
      for (const version of atNonce) {
        if (await receiptOrUndefined(chain.client, version.hash as Hex))
          return watch(ctx, chain, account, atNonce);
      }
      await dropAll(ctx, atNonce, "its nonce was taken by another transaction");
      return { state: "pending", reason: "re-signing at a fresh nonce" };
    }
    // An earlier nonce of the account is not in the node's pool yet (a crashed job's recorded
    // transaction; a node that does not queue gaps): the next payment's look broadcasts the oldest.
    if (refused && /nonce too high/i.test(refused)) {
      return { state: "pending", reason: `nonce ${current.nonce} waits for the account's earlier nonces` };
    }
    // Refused for its fees (evicted while fees rose, and not taken back at them): waiting changes
    // nothing, and every later nonce of the account waits on this one, so it is replaced now.
    if (refused && UNDERPRICED.test(refused)) {
      await bump(ctx, chain, account, current);
      return {
        state: "pending",
        reason: `${current.hash} was refused for its fees; replaced with higher ones`,
      };
    }
    if (refused && !/already known|already imported|known transaction/i.test(refused)) {
      throw new Error(`broadcasting ${current.hash} failed: ${refused}`);
    }
    ctx.faults?.at("after-broadcast", current.purpose);
    await setStatus(ctx, current, "sent", ["signed"]);
    broadcast = true;
  }

  const current = liveOf(versions);
  if (current && ctx.clock.now().getTime() - current.createdAt.getTime() >= replaceAfterMs(ctx)) {
    await bump(ctx, chain, account, current);
  }
  return { state: "pending", reason: "not mined yet" };
}

/** What nodes answer for a transaction whose fees are below what they take now (geth, Nethermind, Erigon, EDR). */
const UNDERPRICED = /underpriced|fee ?too ?low|less than block base fee|too low for the next block/i;

/** The live version at its nonce again with higher fees, or, for calldata past its validity, a cancellation. */
async function bump(
  ctx: PaymentContext,
  chain: ConfiguredChain,
  account: Account,
  current: TransactionRow,
): Promise<void> {
  const validUntil = current.request?.validUntil;
  // Calldata past its validity is not signed again as is: the nonce is taken back, and the
  // payment quoted afresh once that is mined (the stale one may still be mined first: then it is made).
  if (validUntil && !current.request?.cancels && ctx.clock.now() > new Date(validUntil)) {
    await replace(ctx, chain, account, current, { cancel: true });
  } else {
    await replace(ctx, chain, account, current);
  }
}

/**
 * A cancelling version was mined at the payment's nonce: the payment moved nothing. Every version at
 * the nonce is dropped and the cancellation is kept apart (renamed, as a set-aside payment is), so the
 * payment is priced and signed again on its next look.
 */
async function settleCancelled(
  ctx: PaymentContext,
  versions: TransactionRow[],
  cancel: TransactionRow,
): Promise<void> {
  await settle(ctx, versions, cancel, "success", `${cancel.purpose}:cancelled:${cancel.id}`);
  if (!cancel.orderId) return;
  await noteOnTimeline(ctx, cancel.orderId, "PAYMENT_RESIGNED", {
    purpose: cancel.purpose,
    nonce: cancel.nonce,
    droppedHashes: versions.filter((row) => row.id !== cancel.id).map((row) => row.hash),
    reason: "its quote expired before it was mined; it was cancelled and is quoted again",
  });
}

/** Whether the account's transaction count, as of a block with the chain's confirmations, is past `nonce`. */
async function nonceFinal(chain: ConfiguredChain, account: Account, nonce: number): Promise<boolean> {
  const latest = await chain.client.getBlockNumber();
  const final = latest - BigInt(Math.max(1, chain.confirmations)) + 1n;
  if (final < 0n) return false;
  const count = await chain.client.getTransactionCount({ address: account.address, blockNumber: final });
  return count > nonce;
}

function replaceAfterMs(ctx: PaymentContext): number {
  return ctx.config.SETTLEMENT_REPLACE_AFTER_SECONDS * 1000;
}
