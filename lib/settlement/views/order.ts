import type { settlementEvents, settlementOrders } from "../../../schema";
import { receiptView } from "../../ledger/receipt";
import type { SettlementQuote } from "../create-quote";
import { TIMELINE } from "../timeline";
import { isTimelineKind } from "../timeline-entries";
import { quoteView } from "./quote";
import { settlementReceipt } from "./receipt";

export type SettlementOrder = typeof settlementOrders.$inferSelect;
export type SettlementEvent = typeof settlementEvents.$inferSelect;
/** What the views read of an order: all of it but the texts kept for replays and for lists (a full list leaves them unread). */
type ViewedOrder = Omit<SettlementOrder, "creationResponse" | "summaryFacts">;

/** What orderView makes: the creation's answer, and where an order's summary facts are read from. */
export type OrderView = ReturnType<typeof orderView>;

/** An order as partners see it, with its quote's terms. */
export function orderView(order: ViewedOrder, quote: SettlementQuote) {
  return {
    orderId: order.id,
    status: order.status,
    health: order.health,
    fundsStatus: order.fundsStatus,
    reference: order.reference,
    quote: quoteView(quote),
    execution: order.execution,
    createdAt: order.createdAt.toISOString(),
    updatedAt: order.updatedAt.toISOString(),
  };
}

/** The order with what happened to it, oldest first; creation is the first entry. */
export function orderReadView(order: ViewedOrder, quote: SettlementQuote, events: SettlementEvent[]) {
  const created = {
    at: order.createdAt.toISOString(),
    kind: "ORDER_CREATED" as const,
    ...TIMELINE.ORDER_CREATED.moves,
    chainId: null,
    txHash: null,
    reason: null,
  };
  return {
    ...orderView(order, quote),
    burnTxHash: order.burnTxHash,
    receipt: receiptView(settlementReceipt(quote, events)),
    timeline: [
      created,
      ...events
        .sort((a, b) => a.at.getTime() - b.at.getTime() || a.id.localeCompare(b.id))
        .map((event) => ({
          at: event.at.toISOString(),
          kind: event.kind,
          status: event.status,
          fundsStatus: event.fundsStatus,
          chainId: event.chainId === null ? null : Number(event.chainId),
          txHash: event.txHash,
          reason: reasonOf(event),
        })),
    ],
  };
}

/**
 * Why an entry happened, for the kinds whose reason is a provider's published code (Circle's
 * delayReason). A STUCK entry's reason is the service's own prose, which can quote a provider's
 * error, so it stays with the operator (admin API, logs).
 */
function reasonOf(event: SettlementEvent): string | null {
  if (!isTimelineKind(event.kind) || !TIMELINE[event.kind].publicReason) return null;
  const reason = event.detail?.reason;
  return typeof reason === "string" ? reason : null;
}
