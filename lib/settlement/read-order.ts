import { and, eq, type Placeholder, type SQL, sql } from "drizzle-orm";
import { settlementEvents, settlementOrders, settlementQuotes } from "../../schema";
import type { Database } from "../kernel/db/database";
import { preparedOn } from "../kernel/db/prepared";
import { ApiError } from "../kernel/errors/api-error";
import type { PartnerContext } from "../tenancy/caller";
import { orderReadView } from "./views/order";

export type OrderReadView = ReturnType<typeof orderReadView>;

/**
 * One order of the caller's organization, with its quote and timeline, in one round trip.
 * Another organization's order is not found, exactly like a missing one.
 */
export async function readOrder(ctx: PartnerContext, orderId: string): Promise<OrderReadView> {
  const found = viewOf(await callerOrderRows(ctx, orderId));
  if (!found) throw new ApiError("ORDER_NOT_FOUND");
  return found.view;
}

/**
 * The caller's order with its quote and timeline (orderWithTimeline's rows; none for another
 * organization's), as a statement prepared once per client; with `burnHash`, each row also names
 * the order holding that hash.
 */
export function callerOrderRows(ctx: PartnerContext, orderId: string, burnHash?: string) {
  const name = burnHash === undefined ? "settlement_caller_order" : "settlement_caller_order_by_burn";
  const query = preparedOn(ctx.db, name, (db) =>
    orderWithTimeline(
      db,
      and(
        eq(settlementOrders.id, sql.placeholder("orderId")),
        eq(settlementOrders.organizationId, sql.placeholder("organizationId")),
      ),
      burnHash === undefined ? undefined : sql.placeholder("burnHash"),
    ).prepare(name),
  );
  return query.execute({ orderId, organizationId: ctx.caller.organizationId, burnHash });
}

/** The order matching `where` as its read endpoint shows it, and whose it is. */
export interface OrderWithView {
  organizationId: string;
  integrationId: string;
  view: OrderReadView;
}

export async function loadOrderView(
  db: Database,
  where: SQL | undefined,
): Promise<OrderWithView | undefined> {
  return viewOf(await orderWithTimeline(db, where));
}

/**
 * The order, its quote and its timeline in one statement, a row per timeline entry; with
 * `burnHash`, each row also says which order of the same organization holds that burn hash
 * (`burnHashOrder`), if any. Another organization's is not said: that its burn is used is its own
 * business, and a report of it fails verification as any burn of another order does.
 */
function orderWithTimeline(db: Database, where: SQL | undefined, burnHash?: string | Placeholder) {
  const burnHashOrder = burnHash
    ? sql<
        string | null
      >`(select "held"."id" from "settlement_orders" "held" where "held"."burn_tx_hash" = ${burnHash} and "held"."organization_id" = ${settlementOrders.organizationId} limit 1)`
    : sql<string | null>`null`;
  return db
    .select({ order: settlementOrders, quote: settlementQuotes, event: settlementEvents, burnHashOrder })
    .from(settlementOrders)
    .innerJoin(settlementQuotes, eq(settlementQuotes.id, settlementOrders.quoteId))
    .leftJoin(settlementEvents, eq(settlementEvents.orderId, settlementOrders.id))
    .where(where);
}

type OrderRows = Awaited<ReturnType<typeof orderWithTimeline>>;

/** What `orderWithTimeline` read, as the order's read endpoint shows it. */
function viewOf(rows: OrderRows): OrderWithView | undefined {
  const [first] = rows;
  if (!first) return undefined;
  const events = rows.flatMap((row) => (row.event ? [row.event] : []));
  return {
    organizationId: first.order.organizationId,
    integrationId: first.order.integrationId,
    view: orderReadView(first.order, first.quote, events),
  };
}
