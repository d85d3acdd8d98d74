import type { Hex } from "viem";
import { orderCommitment } from "../../kernel/chain/forwarding";
import { mulDivDown } from "../../kernel/money";
import { BPS, RETURN_ROUTE_MAX_COST_BPS, ROUTE_SLIPPAGE_BPS } from "../limits";
import type { SettlementChains } from "../pricing/prices";
import { markStuck, type OrderState } from "../progress/state";
import { type ProgressContext, type Step, sendAll, settlementAccount } from "../progress/steps";
import { arrivalOf, claimDelivery, deliveryTaken } from "./bridge-arrival";
import type { BridgeStatus } from "./ports";
import { bookRouteRefund } from "./route-refund";
import { bridgeStatusOf } from "./vendor-polls";

const UNWIND = "unwind";

/**
 * The aggregator delivered a token Mento does not trade (BRIDGE_OUTCOMES `partial`): the settlement
 * account routes it back to USDC on the intermediate chain through the aggregator (a recorded
 * `unwind` payment; at least the route's input less RETURN_ROUTE_MAX_COST_BPS must come back, a
 * quote that promises less is not taken and the order waits, STUCK past its ROUTING deadline), and
 * the route counts as refunded with the USDC that came back (ROUTE_REFUNDED, substatus
 * `PARTIAL_UNWOUND`): the order routes again while the floor holds, else returns, as after any
 * refund. Only what the chains show is booked: the token's Transfer in the aggregator's receiving
 * transaction, then the USDC Transfer in the way back's.
 */
export async function unwindPartial(
  ctx: ProgressContext,
  state: OrderState,
  chains: SettlementChains,
  { routeHash, status }: { routeHash: Hex; status: BridgeStatus },
  token: Hex,
): Promise<Step> {
  const delivered = await arrivalOf(ctx, state, chains.destination, status, token, routeHash);
  if (delivered === "wait") return "wait";
  // Claimed for this route before it is spent: no other order's report, nor a later route's, can name it.
  const claimed = await claimDelivery(ctx, state, delivered, {
    token,
    amount: delivered.amount.toString(),
    receivingTxHash: delivered.txHash,
    logIndex: delivered.logIndex,
    routeTxHash: routeHash,
  });
  if (!claimed) return deliveryTaken(ctx, state, delivered);
  const usdc = chains.intermediate.contracts.usdc;
  const sent = await sendAll(ctx, state, chains.destination, [
    {
      purpose: UNWIND,
      prepare: () =>
        ctx.providers.routes.routeTransaction({
          from: chains.destination,
          to: chains.intermediate,
          tokenIn: token,
          tokenOut: usdc,
          amountIn: delivered.amount,
          account: settlementAccount(ctx),
          minAmountOut: mulDivDown(state.quote.routeInputUsdc, BPS - RETURN_ROUTE_MAX_COST_BPS, BPS),
          slippageBps: Number(ROUTE_SLIPPAGE_BPS),
          memo: orderCommitment(state.order.id),
        }),
    },
  ]);
  if (sent === "wait") return "wait";
  const unwind = sent.hashes[UNWIND] as Hex;
  const back = await bridgeStatusOf(ctx, {
    txHash: unwind,
    fromChainId: chains.destination.chainId,
    toChainId: chains.intermediate.chainId,
  });
  if (back.status === "pending") return "wait";
  const inUsdc = back.receivedToken === undefined || back.receivedToken.toLowerCase() === usdc.toLowerCase();
  if (back.status === "done" && inUsdc) {
    const arrived = await arrivalOf(ctx, state, chains.intermediate, back, usdc);
    if (arrived === "wait") return "wait";
    return bookRouteRefund(ctx, state, chains, arrived, "PARTIAL_UNWOUND", [UNWIND], unwind);
  }
  await markStuck(
    ctx,
    state,
    `the aggregator delivered ${token} instead of USDm, and its way back to USDC is ${back.status}${back.substatus ? ` (${back.substatus})` : ""}`,
  );
  return "wait";
}
