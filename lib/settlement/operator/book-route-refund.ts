import { eq } from "drizzle-orm";
import type { Hex } from "viem";
import { settlementEvents, settlementTransactions } from "../../../schema";
import { ApiError } from "../../kernel/errors/api-error";
import type { SettlementServices } from "../context";
import { bookRouteRefund } from "../legs/bridge";
import { arrivalOnChain } from "../legs/bridge-arrival";
import { settlementChains } from "../pricing/prices";
import { scheduleAdvance } from "../progress/advance";
import { entriesOf, loadOrderState, recordedHash } from "../progress/state";
import { settlementAccount } from "../progress/steps";

/**
 * The operator books a refund the aggregator made but never named (docs/outcomes.md, the route's
 * `failed` row): for an order ROUTING on a route LI.FI reported FAILED or INVALID, the transaction
 * the operator found (with the aggregator's support) that gave the route's USDC back to the
 * settlement account. Booked exactly as a named refund is, from that transaction's USDC Transfer to
 * the settlement account, never from the operator's figure; a transaction any order's timeline or
 * the service's own payments already name is refused, so money is never booked twice.
 */
export async function bookOperatorRouteRefund(
  ctx: SettlementServices,
  orderId: string,
  request: { txHash: Hex; reason: string },
): Promise<{ orderId: string; status: string; amount: string; txHash: Hex }> {
  const state = await loadOrderState(ctx, orderId);
  if (!state) throw new ApiError("ORDER_NOT_FOUND");
  const route = await recordedHash(ctx.db, orderId, "route");
  const failed =
    state.order.status === "ROUTING" &&
    route !== undefined &&
    entriesOf(state, "ROUTE_FAILED").some(
      ({ detail }) => detail?.routeTxHash?.toLowerCase() === route.toLowerCase(),
    );
  if (!failed) throw new ApiError("ROUTE_NOT_FAILED", { detail: `(status ${state.order.status})` });
  const txHash = request.txHash.toLowerCase() as Hex;
  const [named] = await ctx.db
    .select({ id: settlementEvents.id })
    .from(settlementEvents)
    .where(eq(settlementEvents.txHash, txHash))
    .limit(1);
  const [ours] = await ctx.db
    .select({ id: settlementTransactions.id })
    .from(settlementTransactions)
    .where(eq(settlementTransactions.hash, txHash))
    .limit(1);
  if (named || ours)
    throw refused("is already booked: an order's timeline or the service's own payment names it");
  const chains = settlementChains(ctx.chains, state.order.status);
  const usdc = chains.intermediate.contracts.usdc;
  const back = await arrivalOnChain(ctx.db, {
    orderId,
    chain: chains.intermediate,
    txHash,
    token: usdc,
    to: settlementAccount(ctx),
    reported: undefined,
  });
  if (back === "pending") throw refused("is not mined on the intermediate chain (yet)");
  if (back === "missing") {
    throw refused("shows no single USDC Transfer to the settlement account in a successful receipt");
  }
  await bookRouteRefund(ctx, state, chains, back, `OPERATOR: ${request.reason}`);
  await scheduleAdvance(ctx, orderId, 0);
  return { orderId, status: "MINTED", amount: back.amount.toString(), txHash };
}

function refused(problem: string): ApiError {
  return new ApiError("INVALID_REQUEST", {
    problems: [{ field: "body.txHash", code: "INVALID_REQUEST", problem }],
  });
}
