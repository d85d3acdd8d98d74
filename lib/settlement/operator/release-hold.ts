import { eq } from "drizzle-orm";
import { settlementEvents, settlementOrders } from "../../../schema";
import { ApiError } from "../../kernel/errors/api-error";
import { newId } from "../../kernel/ids";
import type { SettlementServices } from "../context";
import { scheduleAdvance } from "../progress/advance";
import { recordOrderEvents } from "../progress/events";
import { isHeld } from "../progress/hold";
import { loadOrderState } from "../progress/state";
import { TIMELINE } from "../timeline";
import type { TimelineDetail } from "../timeline-entries";

/**
 * The operator's release of a held order (docs/compliance.md, "Held orders"), with the reason kept on
 * its timeline: the order is HEALTHY again and goes on as it would have, and screening never holds
 * it again (the operator decided). An order not held is 409 ORDER_NOT_HELD. Returning a held order
 * instead is the operator's return (`returnOrder`), which goes on despite the hold.
 */
export async function releaseHold(
  ctx: SettlementServices,
  orderId: string,
  reason: string,
): Promise<{ orderId: string; status: string; releasedAt: string }> {
  const released = await ctx.db.transaction(async (tx) => {
    const [order] = await tx
      .select()
      .from(settlementOrders)
      .where(eq(settlementOrders.id, orderId))
      .for("update");
    if (!order) throw new ApiError("ORDER_NOT_FOUND");
    const state = await loadOrderState({ ...ctx, db: tx }, orderId);
    if (!state || !isHeld(state))
      throw new ApiError("ORDER_NOT_HELD", { detail: `(health ${order.health})` });
    const at = ctx.clock.now();
    await tx
      .update(settlementOrders)
      .set({ health: "HEALTHY", updatedAt: at })
      .where(eq(settlementOrders.id, orderId));
    await tx.insert(settlementEvents).values({
      id: newId("evt", ctx.clock),
      orderId,
      kind: "HOLD_RELEASED",
      status: order.status,
      fundsStatus: order.fundsStatus,
      detail: { reason, by: "operator" } satisfies TimelineDetail<"HOLD_RELEASED">,
      at,
    });
    await recordOrderEvents(ctx, tx, orderId, [TIMELINE.HOLD_RELEASED.webhook]);
    return { status: order.status, at };
  });
  ctx.log.warn("settlement hold released by the operator", { orderId });
  await scheduleAdvance(ctx, orderId, 0);
  return { orderId, status: released.status, releasedAt: released.at.toISOString() };
}
