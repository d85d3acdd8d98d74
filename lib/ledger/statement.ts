import { and, eq, gte, inArray, lt, min } from "drizzle-orm";
import { brebPayoutEvents, brebPayouts, settlementEvents, settlementOrders, swapIntents } from "../../schema";
import type { TokenSymbol } from "../kernel/money";
import { payoutReceipts } from "../payouts/payout-receipts";
import { orderReceipts } from "../settlement";
import { swapReceipt } from "../swaps/receipt";
import type { PartnerContext } from "../tenancy/caller";
import type { RecordType } from "./find-transaction";
import type { Counterparty, Receipt } from "./receipt";

/** One money movement of an organization's record: a receipt's movement with where and when it happened. */
export interface StatementLine {
  at: Date;
  type: RecordType;
  id: string;
  leg: string;
  txHash: string | null;
  token: TokenSymbol;
  chainId: number;
  amount: bigint;
  counterparty: Counterparty;
  /** The movement's place among its record's, legs in order: with `at` and `id`, the line's key. */
  seq: number;
}

/** Where a line sorts: by time, then record, then its place in the record's receipt. */
export type LineKey = Pick<StatementLine, "at" | "id" | "seq">;

/** The statement's order, a total one: a page resumes after the key of the last line it showed. */
function compareLines(a: LineKey, b: LineKey): number {
  return a.at.getTime() - b.at.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) || a.seq - b.seq;
}

/** A statement's time: the records active in one window are loaded together, never the whole period. */
const WINDOW_MS = 60 * 60_000;

/**
 * Every money movement of the caller's organization in [from, to), oldest first (ties by record and
 * leg), as the receipts of its settlement orders, payouts and swaps show them; with `after`, only
 * the lines after that key, read from its time on. Streams: the period is read one window at a time
 * (an hour from the next activity), loading only the records with a leg in that window, so a year's
 * statement holds one busy hour in memory, not the year.
 */
export async function* statementLines(
  ctx: PartnerContext,
  period: { from: Date; to: Date },
  after?: LineKey,
): AsyncGenerator<StatementLine> {
  let start = after && after.at > period.from ? after.at : period.from;
  while (start < period.to) {
    const next = await nextActivity(ctx, start, period.to);
    if (!next) return;
    const end = new Date(Math.min(next.getTime() + WINDOW_MS, period.to.getTime()));
    const lines = (await windowLines(ctx, next, end)).sort(compareLines);
    yield* after ? lines.filter((line) => compareLines(line, after) > 0) : lines;
    start = end;
  }
}

/** The first time at or after `from` (and before `to`) anything of the organization happened. */
async function nextActivity(ctx: PartnerContext, from: Date, to: Date): Promise<Date | undefined> {
  const organizationId = ctx.caller.organizationId;
  const [orders, payouts, swaps] = await Promise.all([
    ctx.db
      .select({ at: min(settlementEvents.at) })
      .from(settlementEvents)
      .innerJoin(settlementOrders, eq(settlementOrders.id, settlementEvents.orderId))
      .where(
        and(
          eq(settlementOrders.organizationId, organizationId),
          gte(settlementEvents.at, from),
          lt(settlementEvents.at, to),
        ),
      ),
    ctx.db
      .select({ at: min(brebPayoutEvents.at) })
      .from(brebPayoutEvents)
      .innerJoin(brebPayouts, eq(brebPayouts.id, brebPayoutEvents.payoutId))
      .where(
        and(
          eq(brebPayouts.organizationId, organizationId),
          gte(brebPayoutEvents.at, from),
          lt(brebPayoutEvents.at, to),
        ),
      ),
    ctx.db
      .select({ at: min(swapIntents.confirmedAt) })
      .from(swapIntents)
      .where(
        and(
          eq(swapIntents.organizationId, organizationId),
          eq(swapIntents.status, "confirmed"),
          gte(swapIntents.confirmedAt, from),
          lt(swapIntents.confirmedAt, to),
        ),
      ),
  ]);
  const times = [orders[0]?.at, payouts[0]?.at, swaps[0]?.at].filter((at): at is Date => at instanceof Date);
  return times.length === 0 ? undefined : new Date(Math.min(...times.map((at) => at.getTime())));
}

/** The movements dated in [from, to) of the records with any timeline entry in it. */
async function windowLines(ctx: PartnerContext, from: Date, to: Date): Promise<StatementLine[]> {
  const [orders, payouts, swaps] = await Promise.all([
    windowOrders(ctx, from, to),
    windowPayouts(ctx, from, to),
    ctx.db
      .select()
      .from(swapIntents)
      .where(
        and(
          eq(swapIntents.organizationId, ctx.caller.organizationId),
          eq(swapIntents.status, "confirmed"),
          gte(swapIntents.confirmedAt, from),
          lt(swapIntents.confirmedAt, to),
        ),
      ),
  ]);
  const records: Array<{ type: RecordType; id: string; receipt: Receipt }> = [
    ...orders,
    ...payouts,
    ...swaps.map((row) => ({ type: "swap" as const, id: row.id, receipt: swapReceipt(row) })),
  ];
  return records.flatMap(({ type, id, receipt }) =>
    receipt.legs
      .flatMap((leg) =>
        leg.movements.map((movement) => ({
          type,
          id,
          leg: leg.leg,
          txHash: leg.txHash,
          ...movement,
          at: movement.at ?? leg.at,
        })),
      )
      .map((line, seq) => ({ ...line, seq }))
      .filter((line) => line.at >= from && line.at < to),
  );
}

/** The orders with a timeline entry in [from, to), with their receipts. */
async function windowOrders(ctx: PartnerContext, from: Date, to: Date) {
  const active = ctx.db
    .selectDistinct({ id: settlementEvents.orderId })
    .from(settlementEvents)
    .innerJoin(settlementOrders, eq(settlementOrders.id, settlementEvents.orderId))
    .where(
      and(
        eq(settlementOrders.organizationId, ctx.caller.organizationId),
        gte(settlementEvents.at, from),
        lt(settlementEvents.at, to),
      ),
    );
  const orders = await orderReceipts(ctx.db, inArray(settlementOrders.id, active));
  return orders.map(({ id, receipt }) => ({ type: "settlement_order" as const, id, receipt }));
}

/** The payouts with a timeline entry in [from, to), with their receipts. */
async function windowPayouts(ctx: PartnerContext, from: Date, to: Date) {
  const active = ctx.db
    .selectDistinct({ id: brebPayoutEvents.payoutId })
    .from(brebPayoutEvents)
    .innerJoin(brebPayouts, eq(brebPayouts.id, brebPayoutEvents.payoutId))
    .where(
      and(
        eq(brebPayouts.organizationId, ctx.caller.organizationId),
        gte(brebPayoutEvents.at, from),
        lt(brebPayoutEvents.at, to),
      ),
    );
  const payouts = await payoutReceipts(ctx.db, inArray(brebPayouts.id, active));
  return payouts.map(({ id, receipt }) => ({ type: "payout" as const, id, receipt }));
}
