import { and, eq } from "drizzle-orm";
import { settlementEvents, settlementOrders, settlementTransactions } from "../../schema";
import type { Database } from "../kernel/db/database";
import { ApiError } from "../kernel/errors/api-error";
import { newId } from "../kernel/ids";
import type { SettlementServices } from "./context";
import { withAccountLock } from "./recorded-transactions";
import { RETURN_REQUESTED } from "./return-leg";

/** Where the order's USDC has not left the intermediate chain yet (or is still on its way there). */
const RETURNABLE = new Set(["BURNED", "ATTESTED", "MINTED"]);

/** Who decided a return and why; the reason is the operator's, never shown to partners. */
export interface ReturnRequest {
  reason: string;
  by: "operator" | "service";
}

/**
 * Decides an order's return. Taken under the settlement account's lock on the intermediate chain,
 * the lock its route is signed under, so a return and a route never both go out: an order whose
 * route is recorded is past returning from here. Asking again changes nothing.
 */
export async function decideReturn(
  ctx: SettlementServices,
  orderId: string,
  request: ReturnRequest,
): Promise<{ orderId: string; status: string; requestedAt: string }> {
  const decide = async (tx: Database) => {
    const [order] = await tx
      .select()
      .from(settlementOrders)
      .where(eq(settlementOrders.id, orderId))
      .for("update");
    if (!order) throw new ApiError("ORDER_NOT_FOUND");
    const [already] = await tx
      .select()
      .from(settlementEvents)
      .where(and(eq(settlementEvents.orderId, orderId), eq(settlementEvents.kind, RETURN_REQUESTED)));
    if (already) return { order, at: already.at };
    const [route] = await tx
      .select({ id: settlementTransactions.id })
      .from(settlementTransactions)
      .where(and(eq(settlementTransactions.orderId, orderId), eq(settlementTransactions.purpose, "route")));
    if (!RETURNABLE.has(order.status) || route) {
      throw new ApiError("ORDER_NOT_RETURNABLE", { detail: `(status ${order.status})` });
    }
    const at = ctx.clock.now();
    await tx.insert(settlementEvents).values({
      id: newId("evt", ctx.clock),
      orderId,
      kind: RETURN_REQUESTED,
      status: order.status,
      fundsStatus: order.fundsStatus,
      detail: { reason: request.reason, by: request.by },
      at,
    });
    return { order, at };
  };
  const chain = ctx.chains.byRole("intermediate");
  const signer = ctx.settlement.accountSigner;
  const decided =
    chain && signer ? await withAccountLock(ctx, chain, signer, decide) : await ctx.db.transaction(decide);
  return { orderId, status: decided.order.status, requestedAt: decided.at.toISOString() };
}
