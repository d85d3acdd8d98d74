export { Copm, type CopmOptions } from "./client";
export { commitmentOf, SWAP_COMMITMENT_TAG } from "./commitments";
export { CopmApiError, type ErrorCode } from "./errors";
export { API_VERSION } from "./generated/api-version.gen";
export { CopmApi } from "./generated/sdk.gen";
export type * from "./generated/types.gen";
export { BREB_MINIAPP_OPERATIONS, type BrebMiniapp, type BrebMiniappOptions, brebMiniapp } from "./miniapp";
export { type ItemOf, paginate } from "./pagination";
export {
  burnPlans,
  type PlanStep,
  payoutPlans,
  planTransactions,
  type SignedPlan,
  verifyBurnPlan,
  verifyPayoutPlan,
} from "./plans";
export { type RetryPolicy, retryAfterMs, retryingFetch } from "./retry";
export { checkSwapTransaction, type SwapExpectation } from "./swaps";
export {
  type DeliveryHeaders,
  type DeliveryStore,
  handleOnce,
  memoryDeliveryStore,
  verifyWebhook,
  type WebhookEvent,
  WebhookVerificationError,
} from "./webhooks";
