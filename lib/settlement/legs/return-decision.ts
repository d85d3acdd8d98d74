import { and, eq } from "drizzle-orm";
import { settlementEvents, settlementOrders } from "../../../schema";
import type { Database } from "../../kernel/db/database";
import { ApiError } from "../../kernel/errors/api-error";
import { newId } from "../../kernel/ids";
import type { SettlementServices } from "../context";
import { recordedHash } from "../progress/state";
import type { TimelineDetail } from "../timeline-entries";

/**
 * Where the order's money can still go back from: anywhere before its exchange. Until the route
 * leaves, from the intermediate chain; once its USDm is on the destination chain, by the way back
 * (bridge-back.ts). An order whose exchange is recorded has met its floor and delivers.
 */
const RETURNABLE = new Set(["BURNED", "ATTESTED", "MINTED", "ROUTING"]);

function returnable(order: { status: string; fundsStatus: string }): boolean {
  return (
    RETURNABLE.has(order.status) || (order.status === "ROUTED" && order.fundsStatus === "USDM_ON_DESTINATION")
  );
}

/** Who decided a return and why; the reason is the operator's, never shown to partners. */
export interface ReturnRequest {
  reason: string;
  by: "operator" | "service";
}

/**
 * Decides an order's return: a RETURN_REQUESTED entry, once (asking again changes nothing). The
 * order's next look returns it from where its money is. A payment already recorded forward (a route
 * at MINTED, an exchange at ROUTED) is not withdrawn; each leg checks the decision under its chain's
 * account lock before it signs (`withdrawn`), and the return's own payments check the forward one, so
 * only one of the two ever goes out.
 */
export async function decideReturn(
  ctx: SettlementServices,
  orderId: string,
  request: ReturnRequest,
): Promise<{ orderId: string; status: string; requestedAt: string }> {
  const decided = await ctx.db.transaction(async (tx) => {
    const [order] = await tx
      .select()
      .from(settlementOrders)
      .where(eq(settlementOrders.id, orderId))
      .for("update");
    if (!order) throw new ApiError("ORDER_NOT_FOUND");
    const [already] = await tx
      .select()
      .from(settlementEvents)
      .where(and(eq(settlementEvents.orderId, orderId), eq(settlementEvents.kind, "RETURN_REQUESTED")));
    if (already) return { order, at: already.at };
    if (!returnable(order) || (await recordedHash(tx as unknown as Database, orderId, "exchange"))) {
      throw new ApiError("ORDER_NOT_RETURNABLE", { detail: `(status ${order.status}/${order.fundsStatus})` });
    }
    const at = ctx.clock.now();
    await tx.insert(settlementEvents).values({
      id: newId("evt", ctx.clock),
      orderId,
      kind: "RETURN_REQUESTED",
      status: order.status,
      fundsStatus: order.fundsStatus,
      detail: { reason: request.reason, by: request.by } satisfies TimelineDetail<"RETURN_REQUESTED">,
      at,
    });
    return { order, at };
  });
  return { orderId, status: decided.order.status, requestedAt: decided.at.toISOString() };
}
