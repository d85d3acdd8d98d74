// Made by `npm run docs` (dev/operations-table.ts) from the route modules under functions/: each module
// that exports `register` is one operation. Edit the modules, not this file.
import type { LazyOperation } from "../../http/lazy-operations";

/** The operations of functions/payouts/. */
export const PAYOUTS_OPERATIONS: readonly LazyOperation[] = [
  {
    load: () => import("../../../functions/payouts/admin-attention"),
    routes: [
      { method: "GET", path: "/admin/payouts/attention", operationId: "adminListPayoutsForOperator" },
    ],
  },
  {
    load: () => import("../../../functions/payouts/admin-refund"),
    routes: [
      { method: "POST", path: "/admin/payouts/:payoutId/refund", operationId: "adminRefundPayout" },
    ],
  },
  {
    load: () => import("../../../functions/payouts/confirm-payout"),
    routes: [
      {
        method: "POST",
        path: "/api/integrations/breb/payouts/:payoutId/confirm",
        operationId: "confirmBrebPayout",
      },
      { method: "POST", path: "/api/breb/payouts/:payoutId/confirm" },
    ],
  },
  {
    load: () => import("../../../functions/payouts/create-payout"),
    routes: [
      { method: "POST", path: "/api/integrations/breb/payouts", operationId: "createBrebPayout" },
      { method: "POST", path: "/api/breb/payouts" },
    ],
  },
  {
    load: () => import("../../../functions/payouts/get-payout"),
    routes: [
      { method: "GET", path: "/api/integrations/breb/payouts/:payoutId", operationId: "getBrebPayout" },
      { method: "GET", path: "/api/breb/payouts/:payoutId" },
    ],
  },
  {
    load: () => import("../../../functions/payouts/get-quote"),
    routes: [
      { method: "GET", path: "/api/integrations/breb/quote", operationId: "quoteBrebPayout" },
      { method: "GET", path: "/api/breb/quote" },
    ],
  },
  {
    load: () => import("../../../functions/payouts/list-payouts"),
    routes: [
      { method: "GET", path: "/api/integrations/breb/payouts", operationId: "listBrebPayouts" },
      { method: "GET", path: "/api/breb/payouts" },
    ],
  },
  {
    load: () => import("../../../functions/payouts/provider-callback"),
    routes: [
      { method: "POST", path: "/callbacks/breb", operationId: "brebPayoutCallback" },
    ],
  },
];
