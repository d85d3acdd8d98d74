import { and, eq, ne, or, sql } from "drizzle-orm";
import { unionAll } from "drizzle-orm/pg-core";
import {
  brebPayouts,
  type RECORD_TYPES,
  settlementEvents,
  settlementOrders,
  settlementTransactions,
  swapIntents,
} from "../../schema";
import { ApiError } from "../kernel/errors/api-error";
import { readPayout } from "../payouts/read-payouts";
import { readOrder } from "../settlement";
import { ownIntent } from "../swaps/confirm-swap";
import { swapView } from "../swaps/swap-view";
import type { PartnerContext } from "../tenancy/caller";
import type { ReceiptView } from "./receipt";

export type RecordType = (typeof RECORD_TYPES)[number];

export interface TransactionLookup {
  txHash: string;
  /** Every record of the organization the transaction is part of (a smart wallet's batch may confirm several payouts). */
  records: {
    type: RecordType;
    id: string;
    /** The receipt's legs the transaction is, or is the arrival of. */
    legs: { leg: string; chainId: number; role: string }[];
    /** For a settlement account's own payment: what it paid for and where it stands. */
    payment: { purpose: string; status: string } | null;
  }[];
}

/**
 * Which order, payout or swap of the caller's organization a transaction belongs to, and which of its
 * legs: found by the hash its records keep (the order's timeline and the settlement account's
 * payments, a payout's deposit, refund and fee return, a swap's confirmation). Another organization's
 * transaction is not found, exactly like an unknown one.
 */
export async function findTransaction(ctx: PartnerContext, txHash: string): Promise<TransactionLookup> {
  const hash = txHash.toLowerCase();
  const organizationId = ctx.caller.organizationId;
  const none = sql<string | null>`null`;
  const rows = await unionAll(
    ctx.db
      .select({
        type: sql<RecordType>`'settlement_order'`.as("type"),
        id: settlementEvents.orderId,
        purpose: none.as("purpose"),
        status: none.as("status"),
      })
      .from(settlementEvents)
      .innerJoin(settlementOrders, eq(settlementOrders.id, settlementEvents.orderId))
      .where(and(eq(settlementEvents.txHash, hash), eq(settlementOrders.organizationId, organizationId))),
    ctx.db
      .select({
        type: sql<RecordType>`'settlement_order'`.as("type"),
        id: sql<string>`${settlementTransactions.orderId}`.as("id"),
        purpose: sql<string | null>`${settlementTransactions.purpose}`.as("purpose"),
        status: sql<string | null>`${settlementTransactions.status}`.as("status"),
      })
      .from(settlementTransactions)
      .innerJoin(settlementOrders, eq(settlementOrders.id, settlementTransactions.orderId))
      .where(
        and(
          eq(settlementTransactions.hash, hash),
          // As the hash's index does: a transaction of a reset local chain is no one's now.
          ne(settlementTransactions.status, "orphaned"),
          eq(settlementOrders.organizationId, organizationId),
        ),
      ),
    ctx.db
      .select({
        type: sql<RecordType>`'payout'`.as("type"),
        id: brebPayouts.id,
        purpose: none.as("purpose"),
        status: none.as("status"),
      })
      .from(brebPayouts)
      .where(
        and(
          or(
            eq(brebPayouts.depositTxHash, hash),
            eq(brebPayouts.refundTxHash, hash),
            eq(brebPayouts.feeReturnTxHash, hash),
          ),
          eq(brebPayouts.organizationId, organizationId),
        ),
      ),
    ctx.db
      .select({
        type: sql<RecordType>`'swap'`.as("type"),
        id: swapIntents.id,
        purpose: none.as("purpose"),
        status: none.as("status"),
      })
      .from(swapIntents)
      .where(and(eq(swapIntents.txHash, hash), eq(swapIntents.organizationId, organizationId))),
  );
  if (rows.length === 0) throw new ApiError("TRANSACTION_NOT_FOUND");
  const byRecord = new Map<
    string,
    { type: RecordType; id: string; payment: { purpose: string; status: string } | null }
  >();
  for (const row of rows) {
    const key = `${row.type}:${row.id}`;
    const payment = row.purpose && row.status ? { purpose: row.purpose, status: row.status } : null;
    const known = byRecord.get(key);
    if (!known) byRecord.set(key, { type: row.type, id: row.id, payment });
    else known.payment ??= payment;
  }
  const records = [...byRecord.values()].sort(
    (a, b) => a.type.localeCompare(b.type) || a.id.localeCompare(b.id),
  );
  return {
    txHash: hash,
    records: await Promise.all(
      records.map(async (record) => ({
        ...record,
        legs: legsNaming(await receiptOf(ctx, record.type, record.id), hash),
      })),
    ),
  };
}

async function receiptOf(ctx: PartnerContext, type: RecordType, id: string): Promise<ReceiptView> {
  switch (type) {
    case "settlement_order":
      return (await readOrder(ctx, id)).receipt;
    case "payout":
      return (await readPayout(ctx, id)).receipt;
    case "swap":
      return swapView(await ownIntent(ctx, id)).receipt;
  }
}

function legsNaming(receipt: ReceiptView, hash: string): TransactionLookup["records"][number]["legs"] {
  return receipt.legs.flatMap((leg) => [
    ...(leg.txHash?.toLowerCase() === hash
      ? [{ leg: leg.leg, chainId: leg.chainId, role: "transaction" }]
      : []),
    ...leg.relatedTxHashes
      .filter((related) => related.txHash.toLowerCase() === hash)
      .map((related) => ({ leg: leg.leg, chainId: related.chainId, role: related.role })),
  ]);
}
