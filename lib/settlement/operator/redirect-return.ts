import { eq } from "drizzle-orm";
import type { Hex } from "viem";
import { settlementOrders } from "../../../schema";
import { screenAddresses } from "../../compliance";
import { withAccountLock } from "../../kernel/db/account-lock";
import { ApiError } from "../../kernel/errors/api-error";
import { isSettlementAccount, orderScope } from "../accounts";
import type { SettlementServices } from "../context";
import { returnRequested } from "../legs/return";
import { settlementChains } from "../pricing/prices";
import { scheduleAdvance } from "../progress/advance";
import { loadOrderState, noteOnTimeline, recordedHash } from "../progress/state";

/**
 * The operator names where a return's USDm goes on the destination chain (RETURN_REDIRECTED), for
 * an order whose ways back the aggregator refunded (docs/settlement.md, "Returns"): one with a
 * return decided that holds its USDm there and has not sent it. Naming again before it is sent
 * replaces the address; never the settlement account's own.
 */
export async function redirectReturn(
  ctx: SettlementServices,
  orderId: string,
  request: { to: Hex; reason: string },
): Promise<{ orderId: string; to: Hex; redirectedAt: string }> {
  const [order] = await ctx.db.select().from(settlementOrders).where(eq(settlementOrders.id, orderId));
  if (!order) throw new ApiError("ORDER_NOT_FOUND");
  const account = orderScope(ctx, order).settlement.accountAddress;
  if (isSettlementAccount(ctx.settlement, request.to)) {
    throw new ApiError("INVALID_REQUEST", {
      problems: [
        { field: "body.to", code: "INVALID_REQUEST", problem: "is the service's own settlement account" },
      ],
    });
  }
  const notReturnable = (why: string) =>
    new ApiError("ORDER_NOT_RETURNABLE", { detail: `(status ${order.status}/${order.fundsStatus}${why})` });
  const state = await loadOrderState(ctx, orderId);
  const holdsUsdm = order.status === "ROUTED" && order.fundsStatus === "USDM_ON_DESTINATION";
  if (!state || !returnRequested(state) || !holdsUsdm || !account) throw notReturnable("");
  const { destination } = settlementChains(ctx.chains, order.status, order.execution.chainId);
  // A return's recipient is screened as every party is: the money never goes to a listed address.
  await screenAddresses(ctx, [{ address: request.to, field: "body.to" }], [destination], order.status);
  const at = ctx.clock.now();
  // Under the lock the order's payments are signed under: a return already priced and recorded is
  // refused; one not yet signed sees this name and is withdrawn, then priced again with it.
  await withAccountLock(ctx.db, { chainId: destination.chainId, address: account }, async (tx) => {
    if (await recordedHash(tx, orderId, "return-destination"))
      throw notReturnable(", its return already sent");
    await noteOnTimeline(
      ctx,
      orderId,
      "RETURN_REDIRECTED",
      {
        to: request.to,
        reason: request.reason,
        by: "operator",
      },
      tx,
    );
  });
  await scheduleAdvance(ctx, orderId, 0);
  return { orderId, to: request.to, redirectedAt: at.toISOString() };
}
