import { pruneRequestLogs } from "../audit/request-logs";
import type { AppServices } from "../http/deps";
import { pruneJobReceipts, type SweepHook } from "../kernel/sweep";
import { expireUnpaidPayouts, flagOverduePayouts, recoverPayouts } from "../payouts/sweep-hooks";
import { reconcileReceipts } from "../reconciliation/sweep-hooks";
import {
  findUnclaimedMints,
  markOverdueOrders,
  recoverInFlightOrders,
  refreshPriceBook,
  watchSettlementGas,
} from "../settlement";
import { recoverWebhookDeliveries } from "../webhooks/sweep-hooks";

/** Every sweep hook the cron trigger runs, in order; an area adds its hooks here. */
export const sweepHooks: readonly SweepHook<AppServices>[] = [
  pruneJobReceipts,
  pruneRequestLogs,
  recoverInFlightOrders,
  markOverdueOrders,
  findUnclaimedMints,
  recoverWebhookDeliveries,
  expireUnpaidPayouts,
  recoverPayouts,
  flagOverduePayouts,
  reconcileReceipts,
  watchSettlementGas,
  refreshPriceBook,
];
