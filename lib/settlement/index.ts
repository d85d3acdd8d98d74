/**
 * The settlement area's public surface: what routes, the composition root, other areas and vendor
 * adapters use. Inside the area, modules import one another directly; from outside, only this.
 *
 * The folders hold the area by role: `burns/` (the plan a user signs, the proof of a burn),
 * `pricing/` (a quote's figures and the ports that price it), `legs/` (each step an order waits on,
 * with the ports that observe it), `payments/` (the settlement account's transactions),
 * `progress/` (the state machine that moves orders) and `views/` (what partners read). "Route"
 * means an HTTP route; the aggregator's cross-chain route is a bridge (its statuses and event kinds
 * keep the specification's ROUTING and ROUTED).
 */

export type { SettlementProviders, SettlementSetup } from "./context";
export { createOrder } from "./create-order";
export { createQuote, type SettlementQuote } from "./create-quote";
export { BRIDGE_OUTCOMES } from "./legs/bridge";
export { RETURN_ROUTE_OUTCOMES } from "./legs/bridge-back";
export { CIRCLE_OUTCOMES } from "./legs/circle-outcomes";
export { EXCHANGE_OUTCOMES } from "./legs/exchange";
export type { LegOutcome } from "./legs/outcome";
export type {
  Attestation,
  AttestationProvider,
  BridgeExecutor,
  BridgeStatus,
  ForwardedMint,
  ForwardedMintObserver,
  ForwardedMintQuery,
  ForwardState,
  LegProviders,
} from "./legs/ports";
export {
  BURNED_FUNDS_STATUSES,
  BURNED_STATUSES,
  FUNDS_STATUSES,
  type FundsStatus,
  HEALTHS,
  ORDER_STATUSES,
  type OrderStatus,
} from "./lifecycle";
export { COPM_DECIMALS, MAX_SEND_USDC, MIN_SEND_USDC, USDC_DECIMALS } from "./limits";
export { listOrders, ORDERS_DEFAULT_LIMIT, ORDERS_PAGE_LIMIT } from "./list-orders";
export { bookOperatorRouteRefund } from "./operator/book-route-refund";
export { redirectReturn } from "./operator/redirect-return";
export { releaseHold } from "./operator/release-hold";
export { retryOrderLeg } from "./operator/retry";
export { returnOrder } from "./operator/return-order";
export { operatorHealth, watchSettlementGas } from "./operator-health";
export {
  PRICE_SOURCES,
  type PriceSource,
  priceBookMemory,
  refreshPriceBook,
} from "./pricing/book";
export type { BridgePlanner } from "./pricing/bridge-planner";
export type {
  BridgeProvider,
  BridgeQuote,
  BridgeQuoteRequest,
  ExchangeProvider,
  ExchangeQuote,
  ExchangeQuoteRequest,
  PricingProviders,
  TransferFees,
  TransferFeesProvider,
} from "./pricing/ports";
export { advanceOrder, advanceSettlementJob } from "./progress/advance";
export { reconcileResetChains } from "./progress/chain-reset";
export { markOverdueOrders, recoverInFlightOrders, stuckOrders } from "./progress/sweep-hooks";
export { type OrderReadView, readOrder } from "./read-order";
export { type ServiceStatus, serviceStatus } from "./service-status";
export { settlementSetup } from "./setup";
export { listSourceChains } from "./source-chain";
export { submitBurn } from "./submit-burn";
export { TIMELINE, TIMELINE_KINDS, type TimelineKind } from "./timeline";
export { isTimelineKind, type TimelineDetail } from "./timeline-entries";
export {
  advanceMintReturnJob,
  findUnclaimedMints,
  listUnclaimedMints,
  MINT_RETURN_STATES,
  returnUnclaimedMint,
  type UnclaimedMintView,
} from "./unclaimed";
export type { SettlementEvent } from "./views/order";
export type { OrderSummary } from "./views/order-summary";
export { quoteView } from "./views/quote";
export { settlementReceipt } from "./views/receipt";
export { orderReceipts } from "./views/receipts";
