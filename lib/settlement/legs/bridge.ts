import type { Hex } from "viem";
import { orderCommitment } from "../../kernel/chain/forwarding";
import { mulDivDown } from "../../kernel/money";
import { BPS, ROUTE_SLIPPAGE_BPS } from "../limits";
import type { SettlementChains } from "../pricing/prices";
import { markStuck, noteUnless, type OrderState, recordedHash } from "../progress/state";
import { move, type ProgressContext, type Step, sendAll, settlementAccount } from "../progress/steps";
import { arrivalOf } from "./bridge-arrival";
import { completed } from "./bridge-delivered";
import type { LegOutcome } from "./outcome";
import type { BridgeStatus } from "./ports";
import { heldOnIntermediate, isReturning } from "./return";
import { decideReturn } from "./return-decision";
import { bookRouteRefund } from "./route-refund";
import { bridgeStatusOf } from "./vendor-polls";

/**
 * The aggregator's leg: the settlement account's route transaction (MINTED → ROUTING) and its
 * outcome (→ ROUTED), as BRIDGE_OUTCOMES says for each outcome the aggregator reports.
 */

/** Routes an order may send before a refunded one sends its money back to the user instead. */
export const BRIDGE_ATTEMPTS = 3;

export async function sendBridge(
  ctx: ProgressContext,
  state: OrderState,
  chains: SettlementChains,
): Promise<Step> {
  const account = settlementAccount(ctx);
  const refunds = state.events.filter((event) => event.kind === "ROUTE_REFUNDED").length;
  if (refunds > 0) {
    const why = await reasonNotToRouteAgain(ctx, state, chains, account);
    if (why) {
      await decideReturn(ctx, state.order.id, { reason: why, by: "service" });
      return "moved";
    }
  }
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
          memo: orderCommitment(state.order.id),
        }),
    },
  ]);
  if (sent === "wait") return "wait";
  return move(ctx, state, {
    kind: "ROUTE_SENT",
    chainId: chains.intermediate.chainId,
    ...(sent.hashes.route ? { txHash: sent.hashes.route } : {}),
  });
}

/**
 * After a refund, why the order should not route again, if it should not: its attempts are spent,
 * it holds less than a route takes, or a fresh price (route, then Mento) no longer reaches the floor.
 */
async function reasonNotToRouteAgain(
  ctx: ProgressContext,
  state: OrderState,
  chains: SettlementChains,
  account: Hex,
): Promise<string | undefined> {
  const routes = state.events.filter((event) => event.kind === "ROUTE_SENT").length;
  if (routes >= BRIDGE_ATTEMPTS) return `the aggregator refunded ${routes} routes`;
  const held = heldOnIntermediate(state);
  if (held < state.quote.routeInputUsdc) {
    return `the order holds ${held} USDC after the refund, less than the route's ${state.quote.routeInputUsdc}`;
  }
  const route = await ctx.providers.pricing.bridge.quoteBridge({
    fromChainId: chains.intermediate.chainId,
    toChainId: chains.destination.chainId,
    fromToken: chains.intermediate.contracts.usdc,
    toToken: chains.destination.contracts.usdm,
    fromAmount: state.quote.routeInputUsdc,
    fromAddress: account,
    toAddress: account,
    slippageBps: Number(ROUTE_SLIPPAGE_BPS),
  });
  const exchange = await ctx.providers.pricing.exchange.quoteExchange({
    tokenIn: chains.destination.contracts.usdm,
    tokenOut: chains.destination.contracts.copm,
    amountIn: route.toAmount,
  });
  if (exchange.amountOut < state.quote.copAmountMin) {
    return `after the refund a fresh route gives ${exchange.amountOut} COPm, below the floor ${state.quote.copAmountMin}`;
  }
  return undefined;
}

export async function observeBridge(
  ctx: ProgressContext,
  state: OrderState,
  chains: SettlementChains,
): Promise<Step> {
  const routeHash = await recordedHash(ctx.db, state.order.id, "route");
  if (!routeHash) throw new Error(`order ${state.order.id} is ROUTING without a recorded route transaction`);
  const status = await bridgeStatusOf(ctx, {
    txHash: routeHash,
    fromChainId: chains.intermediate.chainId,
    toChainId: chains.destination.chainId,
  });
  return BRIDGE_OUTCOMES[status.status].handle(ctx, state, chains, status, routeHash);
}

type OutcomeHandler = (
  ctx: ProgressContext,
  state: OrderState,
  chains: SettlementChains,
  status: BridgeStatus,
  routeHash: Hex,
) => Promise<Step>;

/**
 * Every outcome the aggregator can report of a route (BridgeStatus, as lib/vendors/lifi reads
 * LI.FI's answer) and what the service does with it: the table observeBridge runs and
 * docs/outcomes.md shows. A new outcome fails to compile until it has a row.
 */
export const BRIDGE_OUTCOMES = {
  pending: {
    reported: "`PENDING` (any substatus, `REFUND_IN_PROGRESS` included) or `NOT_FOUND`",
    does: "asks again, within the service's LI.FI budget",
    endsIn: "`ROUTING`; `STUCK` past the `ROUTING` deadline, and still asked",
    handle: async () => "wait",
  },
  done: {
    reported: "`DONE`/`COMPLETED`",
    does: "reads the `receiving` transaction's Transfer to the settlement account; books what it shows, in USDm (another token is a partial delivery, whatever the substatus)",
    endsIn: "`ROUTED`",
    handle: (ctx, state, chains, status, routeHash) => completed(ctx, state, chains, status, routeHash),
  },
  partial: {
    reported: "`DONE`/`PARTIAL` (another token arrived on the destination chain)",
    does: "USDC or USDT: exchanges it for USDm through Mento's pool (a recorded `conversion` payment); a token Mento does not trade: routes it back to USDC on the intermediate chain through the aggregator (a recorded `unwind` payment, at least the route's input less 5% back) and books what came back as the route's refund (`ROUTE_REFUNDED`, `PARTIAL_UNWOUND`); an unnamed token, or a way back that fails: `STUCK` for the operator",
    endsIn: "`ROUTED`; for another token `MINTED`, then `ROUTING` again or `RETURNED`",
    handle: (ctx, state, chains, status, routeHash) => completed(ctx, state, chains, status, routeHash),
  },
  refunded: {
    reported: "`DONE`/`REFUNDED` or `FAILED`/`REFUNDED`, the refund named in `receiving`",
    does: "a `ROUTE_FAILED` entry first when LI.FI called it `FAILED`; reads the refund's USDC Transfer back to the settlement account (`ROUTE_REFUNDED`); prices a fresh route and Mento: routes again while the floor holds (at most 3 routes), else decides the return",
    endsIn: "`MINTED`, then `ROUTING` again or `RETURNED`",
    handle: async (ctx, state, chains, status, routeHash) => {
      if (status.reportedFailed) await noteRouteFailed(ctx, state, routeHash, status);
      return refunded(ctx, state, chains, status);
    },
  },
  failed: {
    reported: "`FAILED` (`NOT_PROCESSABLE_REFUND_NEEDED`, …) or `INVALID`, no refund named",
    does: "a `ROUTE_FAILED` timeline entry, once per route; asks again for the refund, within the LI.FI budget",
    endsIn:
      "`ROUTING` until the refund is reported (then as `refunded`); `STUCK` past the `ROUTING` deadline, and still asked; a refund LI.FI never names is booked by the operator (`POST /admin/settlements/orders/{orderId}/route-refund` with the refund's transaction), then as `refunded`",
    handle: async (ctx, state, _chains, status, routeHash) => {
      await noteRouteFailed(ctx, state, routeHash, status);
      return "wait";
    },
  },
} satisfies Record<BridgeStatus["status"], LegOutcome & { handle: OutcomeHandler }>;

/** The aggregator's word that a route failed, on the timeline once per route. */
async function noteRouteFailed(
  ctx: ProgressContext,
  state: OrderState,
  routeHash: Hex,
  status: BridgeStatus,
) {
  await noteUnless(
    ctx,
    state,
    "ROUTE_FAILED",
    { substatus: status.substatus ?? "FAILED", routeTxHash: routeHash },
    (earlier) => earlier.some((detail) => detail?.routeTxHash?.toLowerCase() === routeHash.toLowerCase()),
  );
}

/**
 * The route's USDC came back to the settlement account: the order is MINTED again, and its
 * refunded route is set aside (kept, renamed, in the move's transaction) so the next route is a
 * fresh payment. What came back is what the refund's Transfer shows.
 */
async function refunded(
  ctx: ProgressContext,
  state: OrderState,
  chains: SettlementChains,
  status: BridgeStatus,
): Promise<Step> {
  const usdc = chains.intermediate.contracts.usdc;
  if (status.receivedToken && status.receivedToken.toLowerCase() !== usdc.toLowerCase()) {
    await markStuck(
      ctx,
      state,
      `the aggregator refunded the route in ${status.receivedToken}, not as USDC to the settlement account`,
    );
    return "wait";
  }
  if (!status.receivingTxHash) {
    await markStuck(ctx, state, "the aggregator refunded the route without naming the refund's transaction");
    return "wait";
  }
  const back = await arrivalOf(ctx, state, chains.intermediate, status, usdc);
  if (back === "wait") return "wait";
  return bookRouteRefund(ctx, state, chains, back, status.substatus ?? "REFUNDED");
}
