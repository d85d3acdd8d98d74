import { asc, eq, inArray, type SQL } from "drizzle-orm";
import { settlementEvents, settlementOrders, settlementQuotes } from "../../../schema";
import type { Database } from "../../kernel/db/database";
import type { Receipt } from "../../ledger/receipt";
import type { SettlementEvent } from "./order";
import { settlementReceipt } from "./receipt";

/**
 * The receipts of the orders `where` picks (in id order, at most `limit`), with their quotes and
 * timelines: two queries however many orders. The statements and the reconciliation read them so.
 */
export async function orderReceipts(
  db: Database,
  where: SQL | undefined,
  limit?: number,
): Promise<{ id: string; organizationId: string; receipt: Receipt }[]> {
  const picked = db
    .select({
      id: settlementOrders.id,
      organizationId: settlementOrders.organizationId,
      quote: settlementQuotes,
    })
    .from(settlementOrders)
    .innerJoin(settlementQuotes, eq(settlementQuotes.id, settlementOrders.quoteId))
    .where(where)
    .orderBy(asc(settlementOrders.id));
  const orders = await (limit === undefined ? picked : picked.limit(limit));
  if (orders.length === 0) return [];
  const events = await db
    .select()
    .from(settlementEvents)
    .where(
      inArray(
        settlementEvents.orderId,
        orders.map((order) => order.id),
      ),
    );
  const byOrder = new Map<string, SettlementEvent[]>();
  for (const event of events) byOrder.set(event.orderId, [...(byOrder.get(event.orderId) ?? []), event]);
  return orders.map(({ id, organizationId, quote }) => ({
    id,
    organizationId,
    receipt: settlementReceipt(quote, byOrder.get(id) ?? []),
  }));
}
