import { eq } from "drizzle-orm";
import { type Hex, isAddressEqual, isHash } from "viem";
import { settlementEvents, settlementTransactions } from "../../../schema";
import { receiptOrUndefined } from "../../kernel/chain/receipt";
import type { Database } from "../../kernel/db/database";
import { ApiError } from "../../kernel/errors/api-error";
import { orderScope } from "../accounts";
import type { SettlementServices } from "../context";
import { arrivalOnChain } from "../legs/bridge-arrival";
import { setAsideRefunded } from "../legs/route-refund";
import { settlementChains } from "../pricing/prices";
import { scheduleAdvance } from "../progress/advance";
import { entriesOf, loadOrderState, moveOrder, recordedHash } from "../progress/state";
import { settlementAccount } from "../progress/steps";

/**
 * The operator books a refund the aggregator made but never named (docs/outcomes.md, the route's
 * `failed` row): for an order ROUTING on a route LI.FI reported FAILED or INVALID, the transaction
 * the operator found (with the aggregator's support) that gave the route's USDC back. The chain must
 * show it is that refund, not any USDC that reached the shared settlement account (a top-up,
 * another order's mint or refund): mined after the route, sent to or emitted by the contract the
 * route went to, one USDC Transfer to the settlement account of at most what the route took, and
 * named by no order's timeline nor by the service's own payments, checked again in the move's
 * transaction. Booked as a named refund is, from that Transfer, never from the operator's figure.
 */
export async function bookOperatorRouteRefund(
  ctx: SettlementServices,
  orderId: string,
  request: { txHash: string; reason: string },
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
  if (!route || !failed) throw new ApiError("ROUTE_NOT_FAILED", { detail: `(status ${state.order.status})` });
  const txHash = request.txHash.toLowerCase();
  if (!isHash(txHash)) throw refused("is not a transaction hash");
  if (await namedAnywhere(ctx.db, txHash)) {
    throw refused("is already booked: an order's timeline or the service's own payment names it");
  }
  const chains = settlementChains(ctx.chains, state.order.status, state.order.execution.chainId);
  const client = chains.intermediate.client;
  const [refund, sent] = await Promise.all([
    receiptOrUndefined(client, txHash),
    client.getTransactionReceipt({ hash: route }),
  ]);
  if (!refund) throw refused("is not mined on the intermediate chain (yet)");
  const aggregator = sent.to;
  const fromAggregator =
    aggregator !== null &&
    ((refund.to !== null && isAddressEqual(refund.to, aggregator)) ||
      refund.logs.some((log) => isAddressEqual(log.address, aggregator)));
  if (refund.blockNumber <= sent.blockNumber || !fromAggregator) {
    throw refused(
      "is not the aggregator's: it must be mined after the route and sent to or emitted by the contract the route went to",
    );
  }
  const back = await arrivalOnChain(ctx.db, {
    orderId,
    chain: chains.intermediate,
    txHash,
    token: chains.intermediate.contracts.usdc,
    to: settlementAccount(orderScope(ctx, state.order)),
    reported: undefined,
  });
  if (back === "pending" || back === "missing" || back === "taken") {
    throw refused("shows no single USDC Transfer to the settlement account in a successful receipt");
  }
  if (back.amount <= 0n || back.amount > state.quote.routeInputUsdc) {
    throw refused(`moves ${back.amount} USDC, not a refund of the route's ${state.quote.routeInputUsdc}`);
  }
  const moved = await moveOrder(
    ctx,
    state,
    {
      kind: "ROUTE_REFUNDED",
      chainId: chains.intermediate.chainId,
      txHash,
      arrivedAt: back.minedAt,
      detail: {
        amount: back.amount.toString(),
        logIndex: back.logIndex,
        substatus: `OPERATOR: ${request.reason}`,
      },
    },
    async (tx) => {
      // Under the move's lock on the order, as late as it can be: no one booked it meanwhile.
      if (await namedAnywhere(tx, txHash)) throw refused("was booked by another order meanwhile");
      await setAsideRefunded(tx, orderId, "route");
    },
  );
  // The aggregator named a refund and the order moved meanwhile: nothing was booked here.
  if (!moved) throw new ApiError("ROUTE_NOT_FAILED", { detail: "(the order moved meanwhile)" });
  await scheduleAdvance(ctx, orderId, 0);
  return { orderId, status: "MINTED", amount: back.amount.toString(), txHash };
}

/** Whether any order's timeline or any payment of the service names the transaction. */
async function namedAnywhere(db: Database, txHash: Hex): Promise<boolean> {
  const [event] = await db
    .select({ id: settlementEvents.id })
    .from(settlementEvents)
    .where(eq(settlementEvents.txHash, txHash))
    .limit(1);
  const [payment] = await db
    .select({ id: settlementTransactions.id })
    .from(settlementTransactions)
    .where(eq(settlementTransactions.hash, txHash))
    .limit(1);
  return event !== undefined || payment !== undefined;
}

function refused(problem: string): ApiError {
  return new ApiError("INVALID_REQUEST", {
    problems: [{ field: "body.txHash", code: "INVALID_REQUEST", problem }],
  });
}
