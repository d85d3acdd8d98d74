import { and, asc, eq, getTableColumns, gt, gte, sql } from "drizzle-orm";
import { settlementEvents, settlementOrders, settlementQuotes } from "../../schema";
import type { Database } from "../kernel/db/database";
import { pageOf } from "../kernel/db/paging";
import { preparedOn } from "../kernel/db/prepared";
import type { PartnerContext } from "../tenancy/caller";
import type { OrderStatus } from "./lifecycle";
import type { OrderReadView } from "./read-order";
import { orderReadView, type SettlementEvent } from "./views/order";
import { orderSummaryJson } from "./views/order-summary";

export const ORDERS_PAGE_LIMIT = 500;
export const ORDERS_DEFAULT_LIMIT = 100;

/**
 * Every column of an order but its creation answer's JSON text, kept for idempotent replays only (no
 * view reads it, and at 3.5 KB an order it was half of what a page read and decoded), and its
 * summary's facts, which only the summaries read.
 */
const {
  creationResponse: _replayOnly,
  summaryFacts: _summariesOnly,
  ...orderColumns
} = getTableColumns(settlementOrders);

export interface OrderQuery {
  status?: OrderStatus;
  /** Created at or after. */
  since?: Date;
  limit: number;
  /** The id of the last order of the previous page. */
  cursor?: string;
}

/**
 * How a page tells its orders: `summary` (the current API version: what a list is read for, from two
 * tables' plain columns) or `full`, each as its read endpoint answers it (API-Version 2026-11-25 and
 * earlier). A hundred full orders are ~390 KB with their signed burn plans, quotes' legs, receipts
 * and timelines; a hundred summaries ~65 KB, read without their events.
 */
export type OrderListShape = "summary" | "full";

interface OrderPages {
  /** Each summary as its JSON text (views/order-summary.ts). */
  summary: { orders: string[]; nextCursor: string | null };
  full: { orders: OrderReadView[]; nextCursor: string | null };
}

/**
 * The caller organization's orders, oldest first (ids sort by creation), a page at a time: the next
 * page starts after `nextCursor`, which is null on the last page. One statement for summaries; two
 * for full orders whatever the page's size (the orders with their quotes, then the page's events).
 */
export async function listOrders<S extends OrderListShape>(
  ctx: PartnerContext,
  query: OrderQuery,
  shape: S,
): Promise<OrderPages[S]> {
  const parameters = {
    organizationId: ctx.caller.organizationId,
    status: query.status,
    since: query.since?.toISOString(),
    cursor: query.cursor,
    limit: query.limit + 1,
  };
  if (shape === "summary") {
    const rows = await summariesQuery(ctx.db, query).execute(parameters);
    const { page, nextCursor } = pageOf(rows, query.limit, (row) => row.orderId);
    return { orders: page.map((row) => row.summary), nextCursor } as OrderPages[S];
  }
  const rows = await ordersQuery(ctx.db, query).execute(parameters);
  const { page, nextCursor } = pageOf(rows, query.limit, (row) => row.order.id);
  const events =
    page.length === 0 ? [] : await eventsQuery(ctx.db).execute({ orderIds: page.map((row) => row.order.id) });
  const eventsByOrder = new Map<string, SettlementEvent[]>();
  for (const event of events) {
    const ofOrder = eventsByOrder.get(event.orderId);
    if (ofOrder) ofOrder.push(event);
    else eventsByOrder.set(event.orderId, [event]);
  }
  return {
    orders: page.map(({ order, quote }) => orderReadView(order, quote, eventsByOrder.get(order.id) ?? [])),
    nextCursor,
  } as OrderPages[S];
}

/** The page's filters, the same for both shapes. */
function pageFilter(query: OrderQuery) {
  return and(
    eq(settlementOrders.organizationId, sql.placeholder("organizationId")),
    query.status ? eq(settlementOrders.status, sql.placeholder("status")) : undefined,
    query.since ? gte(settlementOrders.createdAt, sql.placeholder("since")) : undefined,
    query.cursor ? gt(settlementOrders.id, sql.placeholder("cursor")) : undefined,
  );
}

const filterName = (query: OrderQuery) =>
  `${query.status ? "_status" : ""}${query.since ? "_since" : ""}${query.cursor ? "_cursor" : ""}`;

/**
 * The page's summaries, each as the JSON text Postgres builds from the order's own row
 * (views/order-summary.ts): no quote is joined, no burn plan nor leg sent or decoded.
 */
function summariesQuery(db: Database, query: OrderQuery) {
  const name = `settlement_orders_summaries${filterName(query)}`;
  return preparedOn(db, name, (on) =>
    on
      .select({ orderId: settlementOrders.id, summary: orderSummaryJson })
      .from(settlementOrders)
      .where(pageFilter(query))
      .orderBy(asc(settlementOrders.id))
      .limit(sql.placeholder("limit"))
      .prepare(name),
  );
}

/**
 * The page's orders with their quotes, built once per database client (preparedOn) in one version
 * per set of filters asked: building the join's forty columns anew was about a millisecond of CPU
 * a page.
 */
function ordersQuery(db: Database, query: OrderQuery) {
  const name = `settlement_orders_page${filterName(query)}`;
  return preparedOn(db, name, (on) =>
    on
      .select({ order: orderColumns, quote: settlementQuotes })
      .from(settlementOrders)
      .innerJoin(settlementQuotes, eq(settlementQuotes.id, settlementOrders.quoteId))
      .where(pageFilter(query))
      .orderBy(asc(settlementOrders.id))
      .limit(sql.placeholder("limit"))
      .prepare(name),
  );
}

/**
 * The page's events, built once per database client: one array parameter whatever the page's size
 * (a parameter per order id was as costly to build as the orders' statement).
 */
function eventsQuery(db: Database) {
  return preparedOn(db, "settlement_orders_page_events", (on) =>
    on
      .select()
      .from(settlementEvents)
      .where(sql`${settlementEvents.orderId} = any(${sql.placeholder("orderIds")})`)
      .prepare("settlement_orders_page_events"),
  );
}
