import { and, asc, desc, eq, gt, inArray, lte, sql } from "drizzle-orm";
import {
  brebPayouts,
  RECORD_TYPES,
  reconciliationDiscrepancies,
  reconciliationRuns,
  settlementOrders,
  swapIntents,
} from "../../schema";
import type { ServiceContext } from "../kernel/context";
import { newId } from "../kernel/ids";
import type { RecordType } from "../ledger/find-transaction";
import type { Receipt } from "../ledger/receipt";
import { payoutReceipts } from "../payouts/payout-receipts";
import { orderReceipts } from "../settlement";
import { swapReceipt } from "../swaps/receipt";
import { checkReceipt, type Discrepancy } from "./check-receipt";

/** A run starts once a day: the cron trigger runs every 5 minutes and starts one when the last is this old. */
export const RECONCILIATION_INTERVAL_MS = 24 * 60 * 60_000;
/** Records of a type read and checked together. */
const RECONCILIATION_BATCH = 25;
/** Batches one sweep checks at most (200 records: 57,600 a day at a sweep every 5 minutes). */
const RECONCILIATION_BATCHES_PER_SWEEP = 8;
/**
 * A run covers what completed until this long before it starts: a record stamped just before the
 * run's end but committed after the run read past its id would otherwise be missed by both runs.
 */
export const RECONCILIATION_SETTLE_MS = 5 * 60_000;

type Run = typeof reconciliationRuns.$inferSelect;

interface Checked {
  type: RecordType;
  id: string;
  organizationId: string;
  receipt: Receipt;
}

/**
 * One step of the daily reconciliation, as the sweep runs it: opens a run when the last one started
 * a day ago (covering what completed since the last run's end), then checks the next batch of its
 * records against the chains, and closes it when none are left. Returns how many records it checked.
 * Two sweeps at once check the same batch at worst; only the one that moves the run's cursor records
 * what it found.
 */
export async function reconcileStep(ctx: ServiceContext): Promise<number> {
  let checked = 0;
  for (let batch = 0; batch < RECONCILIATION_BATCHES_PER_SWEEP; batch++) {
    const done = await reconcileBatch(ctx);
    if (done === 0) break;
    checked += done;
  }
  return checked;
}

/** One batch: the next records of the open run (opening one when due), or closing the run when none are left. */
async function reconcileBatch(ctx: ServiceContext): Promise<number> {
  const run = await openRun(ctx);
  if (!run) return 0;
  for (const type of RECORD_TYPES) {
    const batch = await completedRecords(ctx, run, type);
    if (batch.length === 0) continue;
    const found = await Promise.all(
      batch.map(async (record) => ({
        record,
        discrepancies: await checkReceipt(ctx.chains, record.receipt),
      })),
    );
    const cursor = { ...run.cursor, [type]: batch.at(-1)?.id };
    await note(ctx, run, cursor, batch.length, found);
    return batch.length;
  }
  const [finished] = await ctx.db
    .update(reconciliationRuns)
    .set({ status: "finished", finishedAt: ctx.clock.now() })
    .where(and(eq(reconciliationRuns.id, run.id), eq(reconciliationRuns.status, "open")))
    .returning();
  if (finished) {
    ctx.log.info("reconciliation finished", {
      runId: finished.id,
      recordsChecked: finished.recordsChecked,
      discrepanciesFound: finished.discrepanciesFound,
    });
  }
  return 0;
}

/** The open run, or a new one when the last started at least a day ago; none otherwise. */
async function openRun(ctx: ServiceContext): Promise<Run | undefined> {
  const [open] = await ctx.db.select().from(reconciliationRuns).where(eq(reconciliationRuns.status, "open"));
  if (open) return open;
  const [last] = await ctx.db
    .select()
    .from(reconciliationRuns)
    .orderBy(desc(reconciliationRuns.startedAt))
    .limit(1);
  const now = ctx.clock.now();
  if (last && now.getTime() - last.startedAt.getTime() < RECONCILIATION_INTERVAL_MS) return undefined;
  await ctx.db
    .insert(reconciliationRuns)
    .values({
      id: newId("rcn", ctx.clock),
      coversFrom: last?.coversTo ?? new Date(0),
      coversTo: new Date(now.getTime() - RECONCILIATION_SETTLE_MS),
      status: "open",
      cursor: {},
      startedAt: now,
    })
    // Another sweep opened one first: that one is the run.
    .onConflictDoNothing();
  const [opened] = await ctx.db
    .select()
    .from(reconciliationRuns)
    .where(eq(reconciliationRuns.status, "open"));
  return opened;
}

/** The run's next records of a type, completed in its window, after its cursor, with their receipts. */
async function completedRecords(ctx: ServiceContext, run: Run, type: RecordType): Promise<Checked[]> {
  const after = run.cursor[type];
  switch (type) {
    case "settlement_order": {
      const orders = await orderReceipts(
        ctx.db,
        and(
          inArray(settlementOrders.status, ["DELIVERED", "RETURNED"]),
          gt(settlementOrders.updatedAt, run.coversFrom),
          lte(settlementOrders.updatedAt, run.coversTo),
          after ? gt(settlementOrders.id, after) : undefined,
        ),
        RECONCILIATION_BATCH,
      );
      return orders.map((order) => ({ type, ...order }));
    }
    case "payout": {
      const payouts = await payoutReceipts(
        ctx.db,
        and(
          inArray(brebPayouts.status, ["completed", "refunded"]),
          gt(brebPayouts.updatedAt, run.coversFrom),
          lte(brebPayouts.updatedAt, run.coversTo),
          after ? gt(brebPayouts.id, after) : undefined,
        ),
        RECONCILIATION_BATCH,
      );
      return payouts.map((payout) => ({ type, ...payout }));
    }
    case "swap": {
      const swaps = await ctx.db
        .select()
        .from(swapIntents)
        .where(
          and(
            eq(swapIntents.status, "confirmed"),
            gt(swapIntents.confirmedAt, run.coversFrom),
            lte(swapIntents.confirmedAt, run.coversTo),
            after ? gt(swapIntents.id, after) : undefined,
          ),
        )
        .orderBy(asc(swapIntents.id))
        .limit(RECONCILIATION_BATCH);
      return swaps.map((swap) => ({
        type,
        id: swap.id,
        organizationId: swap.organizationId,
        receipt: swapReceipt(swap),
      }));
    }
  }
}

/**
 * Moves the run past a batch and records what it found, in one transaction; a run whose cursor moved
 * meanwhile (another sweep checked the batch) records nothing.
 */
async function note(
  ctx: ServiceContext,
  run: Run,
  cursor: Run["cursor"],
  checked: number,
  found: { record: Checked; discrepancies: Discrepancy[] }[],
): Promise<void> {
  const flagged = found.flatMap(({ record, discrepancies }) =>
    discrepancies.map((discrepancy) => ({ record, discrepancy })),
  );
  const now = ctx.clock.now();
  const moved = await ctx.db.transaction(async (tx) => {
    const [updated] = await tx
      .update(reconciliationRuns)
      .set({
        cursor,
        recordsChecked: sql`${reconciliationRuns.recordsChecked} + ${checked}`,
        discrepanciesFound: sql`${reconciliationRuns.discrepanciesFound} + ${flagged.length}`,
      })
      .where(
        and(
          eq(reconciliationRuns.id, run.id),
          eq(reconciliationRuns.status, "open"),
          sql`${reconciliationRuns.cursor} = ${JSON.stringify(run.cursor)}::jsonb`,
        ),
      )
      .returning({ id: reconciliationRuns.id });
    if (!updated || flagged.length === 0) return Boolean(updated);
    await tx.insert(reconciliationDiscrepancies).values(
      flagged.map(({ record, discrepancy }) => ({
        id: newId("rcd", ctx.clock),
        runId: run.id,
        organizationId: record.organizationId,
        recordType: record.type,
        recordId: record.id,
        leg: discrepancy.leg,
        chainId: discrepancy.chainId,
        txHash: discrepancy.txHash,
        problem: discrepancy.problem,
        token: discrepancy.token,
        recorded: discrepancy.recorded,
        foundAt: now,
      })),
    );
    return true;
  });
  // The operator's event: an error log line per discrepancy, which alerting watches.
  if (moved) {
    for (const { record, discrepancy } of flagged) {
      ctx.log.error("reconciliation discrepancy", {
        runId: run.id,
        organizationId: record.organizationId,
        recordType: record.type,
        recordId: record.id,
        ...discrepancy,
      });
    }
  }
}
