// Made by `npm run docs` (dev/operations-table.ts) from the route modules under functions/: each module
// that exports `register` is one operation. Edit the modules, not this file.
import type { LazyOperation } from "../../http/lazy-operations";

/** The operations of functions/settlement/. */
export const SETTLEMENT_OPERATIONS: readonly LazyOperation[] = [
  {
    load: () => import("../../../functions/settlement/admin-health"),
    routes: [
      { method: "GET", path: "/admin/health", operationId: "adminGetHealth" },
    ],
  },
  {
    load: () => import("../../../functions/settlement/admin-list-stuck"),
    routes: [
      { method: "GET", path: "/admin/settlements/stuck", operationId: "adminListStuckSettlements" },
    ],
  },
  {
    load: () => import("../../../functions/settlement/admin-list-unclaimed"),
    routes: [
      { method: "GET", path: "/admin/settlements/unclaimed", operationId: "adminListUnclaimedMints" },
    ],
  },
  {
    load: () => import("../../../functions/settlement/admin-release-hold"),
    routes: [
      {
        method: "POST",
        path: "/admin/settlements/orders/:orderId/release",
        operationId: "adminReleaseSettlementHold",
      },
    ],
  },
  {
    load: () => import("../../../functions/settlement/admin-retry"),
    routes: [
      {
        method: "POST",
        path: "/admin/settlements/orders/:orderId/retry",
        operationId: "adminRetrySettlementLeg",
      },
    ],
  },
  {
    load: () => import("../../../functions/settlement/admin-return"),
    routes: [
      {
        method: "POST",
        path: "/admin/settlements/orders/:orderId/return",
        operationId: "adminReturnSettlementOrder",
      },
    ],
  },
  {
    load: () => import("../../../functions/settlement/admin-return-to"),
    routes: [
      {
        method: "POST",
        path: "/admin/settlements/orders/:orderId/return-to",
        operationId: "adminRedirectSettlementReturn",
      },
    ],
  },
  {
    load: () => import("../../../functions/settlement/admin-return-unclaimed"),
    routes: [
      {
        method: "POST",
        path: "/admin/settlements/unclaimed/:mintId/return",
        operationId: "adminReturnUnclaimedMint",
      },
    ],
  },
  {
    load: () => import("../../../functions/settlement/admin-route-refund"),
    routes: [
      {
        method: "POST",
        path: "/admin/settlements/orders/:orderId/route-refund",
        operationId: "adminBookRouteRefund",
      },
    ],
  },
  {
    load: () => import("../../../functions/settlement/create-order"),
    routes: [
      { method: "POST", path: "/api/integrations/settlements/orders", operationId: "createSettlementOrder" },
    ],
  },
  {
    load: () => import("../../../functions/settlement/create-quote"),
    routes: [
      { method: "POST", path: "/api/integrations/settlements/quotes", operationId: "createSettlementQuote" },
    ],
  },
  {
    load: () => import("../../../functions/settlement/get-order"),
    routes: [
      {
        method: "GET",
        path: "/api/integrations/settlements/orders/:orderId",
        operationId: "getSettlementOrder",
      },
    ],
  },
  {
    load: () => import("../../../functions/settlement/list-chains"),
    routes: [
      {
        method: "GET",
        path: "/api/integrations/settlements/chains",
        operationId: "listSettlementSourceChains",
      },
    ],
  },
  {
    load: () => import("../../../functions/settlement/list-orders"),
    routes: [
      { method: "GET", path: "/api/integrations/settlements/orders", operationId: "listSettlementOrders" },
    ],
  },
  {
    load: () => import("../../../functions/settlement/submit-burn"),
    routes: [
      {
        method: "POST",
        path: "/api/integrations/settlements/orders/:orderId/burn",
        operationId: "submitSettlementBurn",
      },
    ],
  },
];
