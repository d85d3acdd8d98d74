import { and, eq } from "drizzle-orm";
import type { Hex } from "viem";
import { settlementTransactions } from "../../../schema";
import type { Database } from "../../kernel/db/database";
import type { SettlementChains } from "../pricing/prices";
import type { OrderState } from "../progress/state";
import { move, type ProgressContext, type Step } from "../progress/steps";
import type { Arrival } from "./bridge-arrival";

/**
 * The route's USDC is back in the settlement account (the aggregator named the refund, or the
 * operator did): ROUTE_REFUNDED with what the Transfer shows, the order MINTED again, the refunded
 * route set aside in the same database transaction.
 */
export function bookRouteRefund(
  ctx: ProgressContext,
  state: OrderState,
  chains: SettlementChains,
  back: Arrival,
  substatus: string,
  /** Other payments of the order spent with the route (a partial delivery's way back), set aside with it. */
  alsoSetAside: readonly string[] = [],
  /** The way back that brought it, when the route's delivery was unwound. */
  unwindTxHash?: Hex,
): Promise<Step> {
  const orderId = state.order.id;
  return move(
    ctx,
    state,
    {
      kind: "ROUTE_REFUNDED",
      chainId: chains.intermediate.chainId,
      txHash: back.txHash,
      arrivedAt: back.minedAt,
      detail: {
        amount: back.amount.toString(),
        logIndex: back.logIndex,
        substatus,
        ...(unwindTxHash ? { unwindTxHash } : {}),
      },
    },
    async (tx) => {
      for (const purpose of ["route", ...alsoSetAside]) await setAsideRefunded(tx, orderId, purpose);
    },
  );
}

/**
 * Keeps a refunded route's payment, every version of it (a fee replacement leaves one dropped beside
 * the one mined), renamed `<purpose>:refunded:<id of the mined one>`, so the next route is a fresh
 * payment and never finds the refunded one's hash under its purpose.
 */
export async function setAsideRefunded(tx: Database, orderId: string, purpose: string): Promise<void> {
  const versions = await tx
    .select({ id: settlementTransactions.id, status: settlementTransactions.status })
    .from(settlementTransactions)
    .where(and(eq(settlementTransactions.orderId, orderId), eq(settlementTransactions.purpose, purpose)));
  const kept = versions.find((version) => version.status === "success") ?? versions[0];
  if (!kept) return;
  await tx
    .update(settlementTransactions)
    .set({ purpose: `${purpose}:refunded:${kept.id}` })
    .where(and(eq(settlementTransactions.orderId, orderId), eq(settlementTransactions.purpose, purpose)));
}
