import { and, eq } from "drizzle-orm";
import { settlementEvents, settlementOrders, settlementQuotes } from "../../schema";
import { ApiError } from "../errors/api-error";
import type { PartnerContext } from "../tenancy/caller";
import { orderReadView } from "./order-view";

/**
 * One order of the caller's organization, with its quote and timeline, in one round trip.
 * Another organization's order is not found, exactly like a missing one.
 */
export async function readOrder(ctx: PartnerContext, orderId: string) {
  const rows = await ctx.db
    .select({ order: settlementOrders, quote: settlementQuotes, event: settlementEvents })
    .from(settlementOrders)
    .innerJoin(settlementQuotes, eq(settlementQuotes.id, settlementOrders.quoteId))
    .leftJoin(settlementEvents, eq(settlementEvents.orderId, settlementOrders.id))
    .where(
      and(eq(settlementOrders.id, orderId), eq(settlementOrders.organizationId, ctx.caller.organizationId)),
    );
  const [first] = rows;
  if (!first) throw new ApiError("ORDER_NOT_FOUND");
  const events = rows.flatMap((row) => (row.event ? [row.event] : []));
  return orderReadView(first.order, first.quote, events);
}
