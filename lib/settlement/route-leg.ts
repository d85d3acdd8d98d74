import { mulDivDown } from "../kernel/money";
import { BPS, ROUTE_SLIPPAGE_BPS } from "./limits";
import { markStuck, type OrderState, recordedHash } from "./progress-state";
import { move, type ProgressContext, type Step, sendAll, settlementAccount } from "./progress-steps";
import type { SettlementChains } from "./quote-prices";
import { isReturning } from "./return-leg";

/** The aggregator's leg: the settlement account's route transaction (MINTED → ROUTING) and its outcome (→ ROUTED). */

export async function sendRoute(
  ctx: ProgressContext,
  state: OrderState,
  chains: SettlementChains,
): Promise<Step> {
  const account = settlementAccount(ctx);
  const sent = await sendAll(ctx, state, chains.intermediate, [
    {
      purpose: "route",
      // A return decided meanwhile wins: the route is not signed, and the next look returns.
      withdrawn: (tx) => isReturning(tx, state.order.id),
      // A fresh route (LI.FI quotes afresh) only when none is recorded for the order.
      prepare: () =>
        ctx.providers.routes.routeTransaction({
          from: chains.intermediate,
          to: chains.destination,
          tokenIn: chains.intermediate.contracts.usdc,
          tokenOut: chains.destination.contracts.usdm,
          amountIn: state.quote.routeInputUsdc,
          account,
          minAmountOut: mulDivDown(state.quote.expectedUsdm, BPS - ROUTE_SLIPPAGE_BPS, BPS),
          slippageBps: Number(ROUTE_SLIPPAGE_BPS),
        }),
    },
  ]);
  if (sent === "wait") return "wait";
  return move(ctx, state, {
    status: "ROUTING",
    fundsStatus: "IN_TRANSIT_TO_DESTINATION",
    kind: "ROUTE_SENT",
    chainId: chains.intermediate.chainId,
    ...(sent.hashes.route ? { txHash: sent.hashes.route } : {}),
  });
}

export async function observeRoute(
  ctx: ProgressContext,
  state: OrderState,
  chains: SettlementChains,
): Promise<Step> {
  const routeHash = await recordedHash(ctx, state.order.id, "route");
  if (!routeHash) throw new Error(`order ${state.order.id} is ROUTING without a recorded route transaction`);
  const status = await ctx.providers.legs.route.status({
    txHash: routeHash,
    fromChainId: chains.intermediate.chainId,
    toChainId: chains.destination.chainId,
  });
  if (status.status === "failed") {
    await markStuck(ctx, state, `the aggregator reports ${status.substatus ?? "a failure"}`);
    return "wait";
  }
  if (status.status !== "done" || status.receivedAmount === undefined) return "wait";
  return move(ctx, state, {
    status: "ROUTED",
    fundsStatus: "USDM_ON_DESTINATION",
    kind: "ROUTE_COMPLETED",
    chainId: chains.destination.chainId,
    ...(status.receivingTxHash ? { txHash: status.receivingTxHash } : {}),
    detail: { receivedUsdm: status.receivedAmount.toString() },
  });
}
