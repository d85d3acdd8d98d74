import { and, asc, eq, gt, gte, inArray } from "drizzle-orm";
import { settlementEvents, settlementOrders, settlementQuotes } from "../../schema";
import { pageOf } from "../kernel/db/paging";
import type { PartnerContext } from "../tenancy/caller";
import type { OrderStatus } from "./lifecycle";
import type { OrderReadView } from "./read-order";
import { orderReadView, type SettlementEvent } from "./views/order";

export const ORDERS_PAGE_LIMIT = 500;
export const ORDERS_DEFAULT_LIMIT = 100;

export interface OrderQuery {
  status?: OrderStatus;
  /** Created at or after. */
  since?: Date;
  limit: number;
  /** The id of the last order of the previous page. */
  cursor?: string;
}

/**
 * The caller organization's orders, oldest first (ids sort by creation), each as its read endpoint
 * answers it, a page at a time: the next page starts after `nextCursor`, which is null on the last
 * page. Two statements whatever the page's size: the orders with their quotes, then the page's events.
 */
export async function listOrders(
  ctx: PartnerContext,
  query: OrderQuery,
): Promise<{ orders: OrderReadView[]; nextCursor: string | null }> {
  const rows = await ctx.db
    .select({ order: settlementOrders, quote: settlementQuotes })
    .from(settlementOrders)
    .innerJoin(settlementQuotes, eq(settlementQuotes.id, settlementOrders.quoteId))
    .where(
      and(
        eq(settlementOrders.organizationId, ctx.caller.organizationId),
        query.status ? eq(settlementOrders.status, query.status) : undefined,
        query.since ? gte(settlementOrders.createdAt, query.since) : undefined,
        query.cursor ? gt(settlementOrders.id, query.cursor) : undefined,
      ),
    )
    .orderBy(asc(settlementOrders.id))
    .limit(query.limit + 1);
  const { page, nextCursor } = pageOf(rows, query.limit, (row) => row.order.id);
  const events =
    page.length === 0
      ? []
      : await ctx.db
          .select()
          .from(settlementEvents)
          .where(
            inArray(
              settlementEvents.orderId,
              page.map((row) => row.order.id),
            ),
          );
  const eventsByOrder = new Map<string, SettlementEvent[]>();
  for (const event of events) {
    const ofOrder = eventsByOrder.get(event.orderId);
    if (ofOrder) ofOrder.push(event);
    else eventsByOrder.set(event.orderId, [event]);
  }
  return {
    orders: page.map(({ order, quote }) => orderReadView(order, quote, eventsByOrder.get(order.id) ?? [])),
    nextCursor,
  };
}
