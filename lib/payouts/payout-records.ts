import { and, asc, eq } from "drizzle-orm";
import { brebPayoutEvents, type PayoutNote } from "../../schema";
import type { ServiceContext } from "../kernel/context";
import type { Database } from "../kernel/db/database";
import { newId } from "../kernel/ids";
import { recordEvents } from "../webhooks/outbox";
import type { BrebPayoutRequest } from "./breb-provider";
import { type PayoutRow, type PayoutStatus, payoutView } from "./payout-view";

/** The payout as the provider is sent it: to take it (submit) or to send its deposit back (refund). */
export function providerRequestOf(payout: PayoutRow): BrebPayoutRequest {
  return {
    payoutId: payout.id,
    breBKey: payout.breBKey,
    accountOwnerName: payout.accountOwnerName,
    destinationCop: payout.destinationCop.toString(),
    token: payout.token as BrebPayoutRequest["token"],
    chainId: payout.chainId,
    amount: payout.providerAmount.toString(),
    depositTxHash: payout.depositTxHash ?? "",
    ...(payout.depositLogIndex === null ? {} : { depositLogIndex: payout.depositLogIndex }),
    refundAddress: payout.userAddress,
  };
}

/** The payout as its read endpoint answers, within `db` (a transaction sees its own writes). */
export async function loadPayoutView(db: Database, payout: PayoutRow) {
  const events = await db
    .select()
    .from(brebPayoutEvents)
    .where(eq(brebPayoutEvents.payoutId, payout.id))
    .orderBy(asc(brebPayoutEvents.at));
  return payoutView(payout, events);
}

/**
 * A move's record, in the transaction that made it: the timeline entry and the `payout.<status>`
 * outbox event carrying the payout as read after the move.
 */
export async function noteMove(
  ctx: ServiceContext,
  tx: Database,
  payout: PayoutRow,
  entry: { status: PayoutStatus; detail?: string | null; txHash?: string | null },
): Promise<void> {
  await tx.insert(brebPayoutEvents).values({
    id: newId("pev", ctx.clock),
    payoutId: payout.id,
    at: ctx.clock.now(),
    status: entry.status,
    detail: entry.detail ?? null,
    txHash: entry.txHash ?? null,
  });
  await recordEvents(ctx, tx, [
    {
      organizationId: payout.organizationId,
      integrationId: payout.integrationId,
      type: `payout.${entry.status}`,
      subjectId: payout.id,
      data: await loadPayoutView(tx, payout),
    },
  ]);
}

/**
 * A note on the payout's timeline, which leaves its status where it is and sends no webhook: what
 * the chain showed of a refund, the operator's flags, the return of the service's fee. `once`: not
 * when the timeline holds the same note already (a poll every PAYOUT_POLL_SECONDS says it once).
 */
export async function notePayout(
  ctx: ServiceContext,
  db: Database,
  payoutId: string,
  entry: { note: PayoutNote; detail: string; txHash?: string | null; once?: boolean },
): Promise<boolean> {
  const txHash = entry.txHash ?? null;
  if (entry.once) {
    const [held] = await db
      .select({ id: brebPayoutEvents.id, detail: brebPayoutEvents.detail, txHash: brebPayoutEvents.txHash })
      .from(brebPayoutEvents)
      .where(and(eq(brebPayoutEvents.payoutId, payoutId), eq(brebPayoutEvents.status, entry.note)))
      .then((rows) => rows.filter((row) => row.detail === entry.detail && row.txHash === txHash));
    if (held) return false;
  }
  await db.insert(brebPayoutEvents).values({
    id: newId("pev", ctx.clock),
    payoutId,
    at: ctx.clock.now(),
    status: entry.note,
    detail: entry.detail,
    txHash,
  });
  return true;
}
