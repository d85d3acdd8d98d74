import { isUniqueViolation } from "../../kernel/db/errors";
import { withAccountLock } from "./account-lock";
import { coverAllowance } from "./allowance";
import { InFlight } from "./in-flight";
import { liveVersions, unminedRows } from "./records";
import { signAndRecord, WouldRevert } from "./sign";
import {
  ALLOWANCE_PURPOSE,
  type Payment,
  type PaymentContext,
  type PaymentRequest,
  type TransactionOutcome,
} from "./types";
import { watch, watchAccountQueue } from "./watch";

/**
 * Makes one of an order's payments at most once. The account's transactions on a chain are signed
 * one after another under a database lock on the account, each at the nonce after the last one
 * recorded, and broadcast without waiting for the earlier ones to be mined: up to
 * SETTLEMENT_MAX_IN_FLIGHT unmined at once. A payment whose estimate fails while earlier ones are
 * not mined waits for them rather than being refused; a payment that spends an allowance counts what
 * the unmined ones will spend of it, and a short allowance is topped up behind them; payments naming
 * one `serialWith` key (a Mento pool) go one at a time (docs/adr/0002-settlement-account-queue.md).
 * Every signed transaction is recorded before it is broadcast; whoever comes later finds the record
 * and watches it (rebroadcasting, replacing with higher fees past SETTLEMENT_REPLACE_AFTER_SECONDS,
 * or re-signing once its nonce provably went to another transaction) instead of paying again. A
 * payment counts as made only with the chain's configured confirmations.
 */
export async function sendOnce(ctx: PaymentContext, payment: Payment): Promise<TransactionOutcome> {
  const live = await liveVersions(ctx.db, payment.orderId, payment.purpose);
  if (live.length > 0) return watch(ctx, payment.chain, payment.account, live);
  if ((await watchAccountQueue(ctx, payment.chain, payment.account)) >= maxInFlight(ctx)) return QUEUED;
  const request = await payment.prepare();
  if ("refused" in request) return { state: "refused", purpose: payment.purpose, reason: request.refused };
  if ("notYet" in request) return { state: "pending", reason: request.notYet };
  return signAndSend(ctx, payment, request);
}

const QUEUED: TransactionOutcome = {
  state: "pending",
  reason: "queued behind the account's earlier transactions",
};

async function signAndSend(
  ctx: PaymentContext,
  payment: Payment,
  request: PaymentRequest,
  mayTopUp = true,
): Promise<TransactionOutcome> {
  const chosen = await withAccountLock(ctx, payment.chain, payment.account, async (tx) => {
    const recorded = await liveVersions(tx, payment.orderId, payment.purpose);
    if (recorded.length > 0) return { kind: "recorded" as const, rows: recorded };
    const queue = new InFlight(payment.chain, await unminedRows(tx, payment.chain, payment.account));
    if (queue.nonces >= maxInFlight(ctx)) return { kind: "queued" as const };
    if (await payment.withdrawn?.(tx)) return { kind: "queued" as const };
    if (request.serialWith && (await queue.holds(request.serialWith))) return { kind: "queued" as const };
    try {
      if (request.allowance) {
        const cover = await coverAllowance(ctx, tx, payment, request.allowance, queue, mayTopUp);
        if (cover === "wait") return { kind: "queued" as const };
        if (cover !== "covered") return { kind: "allowance" as const, rows: [cover] };
      }
      // Priced long enough ago (waiting behind an allowance top-up) that its calldata went stale.
      if (request.validUntil && ctx.clock.now() > request.validUntil) return { kind: "stale" as const };
      const row = await signAndRecord(ctx, tx, payment.chain, payment.account, queue, {
        orderId: payment.orderId,
        purpose: payment.purpose,
        to: request.to,
        data: request.data,
        value: request.value ?? 0n,
        ...(request.allowance ? { allowance: request.allowance } : {}),
        ...(request.serialWith ? { serialWith: request.serialWith } : {}),
        ...(request.validUntil ? { validUntil: request.validUntil.toISOString() } : {}),
      });
      return { kind: "signed" as const, rows: [row] };
    } catch (error) {
      // The estimate ran on the chain's latest state: a transaction of the account not mined yet
      // may still change it (an approval the payment spends), so the payment waits for those; with
      // none, the chain refuses it as it is. The order's leg deadline bounds the wait.
      if (error instanceof WouldRevert && (await queue.anyUnmined())) return { kind: "queued" as const };
      throw error;
    }
  }).catch((error: unknown) => {
    // The database refuses a second live version of a payment or a nonce: another job got there first.
    if (isUniqueViolation(error)) return { kind: "queued" as const };
    if (error instanceof WouldRevert) return { kind: "refused" as const, error };
    throw error;
  });

  switch (chosen.kind) {
    case "refused":
      return { state: "refused", purpose: chosen.error.purpose, reason: chosen.error.message };
    case "queued":
      return QUEUED;
    case "stale":
      return { state: "pending", reason: "its quote expired before it was signed; it is priced again" };
    case "recorded":
      return watch(ctx, payment.chain, payment.account, chosen.rows);
    case "allowance": {
      ctx.faults?.at("after-record", ALLOWANCE_PURPOSE);
      const approval = await watch(ctx, payment.chain, payment.account, chosen.rows);
      if (approval.state !== "success") return approval;
      ctx.faults?.at("after-confirm", ALLOWANCE_PURPOSE);
      // The allowance stands now: the payment itself is next in the account's queue.
      return signAndSend(ctx, payment, request, false);
    }
    case "signed": {
      ctx.faults?.at("after-record", payment.purpose);
      return watch(ctx, payment.chain, payment.account, chosen.rows);
    }
  }
}

const maxInFlight = (ctx: PaymentContext) => ctx.config.SETTLEMENT_MAX_IN_FLIGHT;
