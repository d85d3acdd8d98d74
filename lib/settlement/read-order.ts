import { and, eq, type SQL } from "drizzle-orm";
import { settlementEvents, settlementOrders, settlementQuotes } from "../../schema";
import type { Database } from "../kernel/db/database";
import { ApiError } from "../kernel/errors/api-error";
import type { PartnerContext } from "../tenancy/caller";
import { orderReadView } from "./order-view";

export type OrderReadView = ReturnType<typeof orderReadView>;

/**
 * One order of the caller's organization, with its quote and timeline, in one round trip.
 * Another organization's order is not found, exactly like a missing one.
 */
export async function readOrder(ctx: PartnerContext, orderId: string): Promise<OrderReadView> {
  const found = await loadOrderView(
    ctx.db,
    and(eq(settlementOrders.id, orderId), eq(settlementOrders.organizationId, ctx.caller.organizationId)),
  );
  if (!found) throw new ApiError("ORDER_NOT_FOUND");
  return found.view;
}

/** The order matching `where` as its read endpoint shows it, and whose it is. */
export async function loadOrderView(
  db: Database,
  where: SQL | undefined,
): Promise<{ organizationId: string; integrationId: string; view: OrderReadView } | undefined> {
  const rows = await db
    .select({ order: settlementOrders, quote: settlementQuotes, event: settlementEvents })
    .from(settlementOrders)
    .innerJoin(settlementQuotes, eq(settlementQuotes.id, settlementOrders.quoteId))
    .leftJoin(settlementEvents, eq(settlementEvents.orderId, settlementOrders.id))
    .where(where);
  const [first] = rows;
  if (!first) return undefined;
  const events = rows.flatMap((row) => (row.event ? [row.event] : []));
  return {
    organizationId: first.order.organizationId,
    integrationId: first.order.integrationId,
    view: orderReadView(first.order, first.quote, events),
  };
}
