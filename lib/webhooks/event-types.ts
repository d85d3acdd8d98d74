/**
 * Every event type the service sends, with when it fires. Payouts and swaps add theirs here.
 * A settlement event's `data` is the order as `GET /api/integrations/settlements/orders/{orderId}`
 * answers at the moment of the change; a payout event's, the payout as
 * `GET /api/integrations/breb/payouts/{payoutId}` answers.
 */
export const EVENT_CATALOG = {
  "settlement.order.burned": "The order's burn was verified on the source chain (status BURNED).",
  "settlement.order.attested": "Circle attested the burn (status ATTESTED).",
  "settlement.order.minted": "The forwarded mint reached the settlement account (status MINTED).",
  "settlement.order.routing": "The route to the destination chain was sent (status ROUTING).",
  "settlement.order.routed": "The route arrived on the destination chain (status ROUTED).",
  "settlement.order.delivered":
    "COPm reached the destination address with its confirmations (status DELIVERED).",
  "settlement.order.returning":
    "The order cannot deliver its floor: its USDC is on its way back to sourceAddress on the source chain (status RETURNING).",
  "settlement.order.returned":
    "The order's USDC reached sourceAddress on the source chain; the timeline has the return's hashes (status RETURNED).",
  "settlement.order.stuck": "The order stopped moving (health STUCK); the timeline says why.",
  "settlement.order.recovered": "A stuck order moved again (health HEALTHY).",
  "settlement.order.incident":
    "Something happened on one of the order's legs that leaves its status as it is: a vendor's failure (ROUTE_FAILED, FORWARD_FAILED, EXCHANGE_HALTED, ATTESTATION_DELAYED, EXCHANGE_DELAYED) or the service's recovery (MINT_RELAYED, ROUTE_PARTIAL, CONVERTED); the order's newest timeline entry says which.",
  "payout.awaiting_deposit":
    "A payout was created; the user's deposit is awaited until depositDeadline (status awaiting_deposit).",
  "payout.deposit_confirmed": "The user's deposit was verified on chain (status deposit_confirmed).",
  "payout.processing": "The payout provider took the payout (status processing).",
  "payout.completed": "The recipient was paid over BRE-B (status completed; brebTransactionId set).",
  "payout.failed": "The provider could not pay; a refund follows (status failed).",
  "payout.refunded": "The provider returned the deposit to the user (status refunded; refundTxHash set).",
  "payout.expired": "No deposit arrived by depositDeadline (status expired).",
  "payout.refund_required":
    "A deposit arrived after depositDeadline; the operator refunds it (status refund_required).",
  "swap.confirmed": "A prepared swap was confirmed by its transaction, with the amounts its logs show.",
  "webhook.test":
    "Sent on request by POST /api/integrations/webhooks/endpoint/test, whatever types the endpoint subscribes to.",
} as const;

export type EventType = keyof typeof EVENT_CATALOG;
export const EVENT_TYPES = Object.keys(EVENT_CATALOG) as [EventType, ...EventType[]];

/** What an endpoint may subscribe to: every type but the test event, which is sent only on request. */
export type SubscribableEventType = Exclude<EventType, "webhook.test">;
export const SUBSCRIBABLE_EVENT_TYPES = EVENT_TYPES.filter((type) => type !== "webhook.test") as [
  SubscribableEventType,
  ...SubscribableEventType[],
];
