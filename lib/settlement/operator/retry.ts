import { eq } from "drizzle-orm";
import { settlementOrders } from "../../../schema";
import { ApiError } from "../../kernel/errors/api-error";
import type { SettlementServices } from "../context";
import { setAsideReverted } from "../payments";
import { scheduleAdvance } from "../progress/advance";

/**
 * The operator's retry of an order's current leg: a transaction of the order that reverted is set
 * aside (kept, renamed) so the leg signs a new one, and the order is looked at again now.
 * A transaction that did not revert is never replaced: it may still be mined.
 */
export async function retryOrderLeg(
  ctx: SettlementServices,
  orderId: string,
): Promise<{ orderId: string; setAside: number }> {
  const [order] = await ctx.db.select().from(settlementOrders).where(eq(settlementOrders.id, orderId));
  if (!order) throw new ApiError("ORDER_NOT_FOUND");
  const setAside = await setAsideReverted(ctx, orderId);
  await scheduleAdvance(ctx, orderId, 0);
  return { orderId, setAside };
}
