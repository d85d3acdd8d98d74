// Made by `npm run docs` (dev/operations-table.ts) from the route modules under functions/: each module
// that exports `register` is one operation. Edit the modules, not this file.
import type { LazyOperation } from "../http/lazy-operations";

/**
 * Every operation the API worker serves, with the routes each registers: the worker routes a
 * request by this table and loads the operation's module at its first request (lib/http/lazy-operations.ts).
 */
export const API_OPERATIONS: readonly LazyOperation[] = [
  {
    load: () => import("../../functions/audit/list-audit-log"),
    routes: [
      { method: "GET", path: "/api/integrations/audit-log", operationId: "listAuditLog" },
    ],
  },
  {
    load: () => import("../../functions/audit/list-request-logs"),
    routes: [
      { method: "GET", path: "/api/integrations/request-logs", operationId: "listRequestLogs" },
    ],
  },
  {
    load: () => import("../../functions/compliance/admin-allow-address"),
    routes: [
      {
        method: "DELETE",
        path: "/admin/compliance/denied-addresses/:address",
        operationId: "adminAllowAddress",
      },
    ],
  },
  {
    load: () => import("../../functions/compliance/admin-deny-address"),
    routes: [
      { method: "POST", path: "/admin/compliance/denied-addresses", operationId: "adminDenyAddress" },
    ],
  },
  {
    load: () => import("../../functions/compliance/admin-list-denied"),
    routes: [
      { method: "GET", path: "/admin/compliance/denied-addresses", operationId: "adminListDeniedAddresses" },
    ],
  },
  {
    load: () => import("../../functions/compliance/admin-movements-report"),
    routes: [
      {
        method: "GET",
        path: "/admin/organizations/:organizationId/compliance/movements",
        operationId: "adminMovementsReport",
      },
    ],
  },
  {
    load: () => import("../../functions/identity/get-kyc"),
    routes: [
      { method: "GET", path: "/api/integrations/breb/kyc", operationId: "getBrebKyc" },
      { method: "GET", path: "/api/breb/kyc" },
    ],
  },
  {
    load: () => import("../../functions/identity/kyc-callback"),
    routes: [
      { method: "POST", path: "/callbacks/kyc", operationId: "kycCallback" },
    ],
  },
  {
    load: () => import("../../functions/identity/send-otp"),
    routes: [
      { method: "POST", path: "/api/integrations/breb/kyc/otp/send", operationId: "sendBrebOtp" },
      { method: "POST", path: "/api/breb/kyc/otp/send" },
    ],
  },
  {
    load: () => import("../../functions/identity/verify-otp"),
    routes: [
      { method: "POST", path: "/api/integrations/breb/kyc/otp/verify", operationId: "verifyBrebOtp" },
      { method: "POST", path: "/api/breb/kyc/otp/verify" },
    ],
  },
  {
    load: () => import("../../functions/identity/wallet-challenge"),
    routes: [
      {
        method: "POST",
        path: "/api/integrations/breb/kyc/wallet/challenge",
        operationId: "createBrebWalletChallenge",
      },
      { method: "POST", path: "/api/breb/kyc/wallet/challenge" },
    ],
  },
  {
    load: () => import("../../functions/identity/wallet-session"),
    routes: [
      {
        method: "POST",
        path: "/api/integrations/breb/kyc/wallet/session",
        operationId: "openBrebWalletSession",
      },
      { method: "POST", path: "/api/breb/kyc/wallet/session" },
    ],
  },
  {
    load: () => import("../../functions/ledger/get-statement"),
    routes: [
      { method: "GET", path: "/api/integrations/statements", operationId: "getStatement" },
    ],
  },
  {
    load: () => import("../../functions/ledger/get-transaction"),
    routes: [
      { method: "GET", path: "/api/integrations/transactions/:txHash", operationId: "getTransaction" },
    ],
  },
  {
    load: () => import("../../functions/payouts/admin-attention"),
    routes: [
      { method: "GET", path: "/admin/payouts/attention", operationId: "adminListPayoutsForOperator" },
    ],
  },
  {
    load: () => import("../../functions/payouts/admin-refund"),
    routes: [
      { method: "POST", path: "/admin/payouts/:payoutId/refund", operationId: "adminRefundPayout" },
    ],
  },
  {
    load: () => import("../../functions/payouts/confirm-payout"),
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
    load: () => import("../../functions/payouts/create-payout"),
    routes: [
      { method: "POST", path: "/api/integrations/breb/payouts", operationId: "createBrebPayout" },
      { method: "POST", path: "/api/breb/payouts" },
    ],
  },
  {
    load: () => import("../../functions/payouts/get-payout"),
    routes: [
      { method: "GET", path: "/api/integrations/breb/payouts/:payoutId", operationId: "getBrebPayout" },
      { method: "GET", path: "/api/breb/payouts/:payoutId" },
    ],
  },
  {
    load: () => import("../../functions/payouts/get-quote"),
    routes: [
      { method: "GET", path: "/api/integrations/breb/quote", operationId: "quoteBrebPayout" },
      { method: "GET", path: "/api/breb/quote" },
    ],
  },
  {
    load: () => import("../../functions/payouts/list-payouts"),
    routes: [
      { method: "GET", path: "/api/integrations/breb/payouts", operationId: "listBrebPayouts" },
      { method: "GET", path: "/api/breb/payouts" },
    ],
  },
  {
    load: () => import("../../functions/payouts/provider-callback"),
    routes: [
      { method: "POST", path: "/callbacks/breb", operationId: "brebPayoutCallback" },
    ],
  },
  {
    load: () => import("../../functions/platform/docs"),
    routes: [
      { method: "GET", path: "/docs" },
    ],
  },
  {
    load: () => import("../../functions/platform/health"),
    routes: [
      { method: "GET", path: "/health", operationId: "getHealth" },
    ],
  },
  {
    load: () => import("../../functions/platform/run-job"),
    routes: [
      { method: "POST", path: "/internal/jobs/:kind" },
    ],
  },
  {
    load: () => import("../../functions/platform/status"),
    routes: [
      { method: "GET", path: "/status", operationId: "getStatus" },
    ],
  },
  {
    load: () => import("../../functions/reconciliation/admin-get-report"),
    routes: [
      { method: "GET", path: "/admin/reconciliation", operationId: "adminGetReconciliation" },
    ],
  },
  {
    load: () => import("../../functions/sandbox/faucet"),
    routes: [
      { method: "POST", path: "/api/integrations/sandbox/faucet", operationId: "sandboxFaucet" },
    ],
  },
  {
    load: () => import("../../functions/sandbox/get-network"),
    routes: [
      { method: "GET", path: "/api/integrations/sandbox/network", operationId: "getSandboxNetwork" },
    ],
  },
  {
    load: () => import("../../functions/sandbox/sanctions"),
    routes: [
      { method: "POST", path: "/api/integrations/sandbox/sanctions", operationId: "sandboxSanction" },
    ],
  },
  {
    load: () => import("../../functions/settlement/admin-health"),
    routes: [
      { method: "GET", path: "/admin/health", operationId: "adminGetHealth" },
    ],
  },
  {
    load: () => import("../../functions/settlement/admin-list-stuck"),
    routes: [
      { method: "GET", path: "/admin/settlements/stuck", operationId: "adminListStuckSettlements" },
    ],
  },
  {
    load: () => import("../../functions/settlement/admin-list-unclaimed"),
    routes: [
      { method: "GET", path: "/admin/settlements/unclaimed", operationId: "adminListUnclaimedMints" },
    ],
  },
  {
    load: () => import("../../functions/settlement/admin-release-hold"),
    routes: [
      {
        method: "POST",
        path: "/admin/settlements/orders/:orderId/release",
        operationId: "adminReleaseSettlementHold",
      },
    ],
  },
  {
    load: () => import("../../functions/settlement/admin-retry"),
    routes: [
      {
        method: "POST",
        path: "/admin/settlements/orders/:orderId/retry",
        operationId: "adminRetrySettlementLeg",
      },
    ],
  },
  {
    load: () => import("../../functions/settlement/admin-return"),
    routes: [
      {
        method: "POST",
        path: "/admin/settlements/orders/:orderId/return",
        operationId: "adminReturnSettlementOrder",
      },
    ],
  },
  {
    load: () => import("../../functions/settlement/admin-return-to"),
    routes: [
      {
        method: "POST",
        path: "/admin/settlements/orders/:orderId/return-to",
        operationId: "adminRedirectSettlementReturn",
      },
    ],
  },
  {
    load: () => import("../../functions/settlement/admin-return-unclaimed"),
    routes: [
      {
        method: "POST",
        path: "/admin/settlements/unclaimed/:mintId/return",
        operationId: "adminReturnUnclaimedMint",
      },
    ],
  },
  {
    load: () => import("../../functions/settlement/admin-route-refund"),
    routes: [
      {
        method: "POST",
        path: "/admin/settlements/orders/:orderId/route-refund",
        operationId: "adminBookRouteRefund",
      },
    ],
  },
  {
    load: () => import("../../functions/settlement/create-order"),
    routes: [
      { method: "POST", path: "/api/integrations/settlements/orders", operationId: "createSettlementOrder" },
    ],
  },
  {
    load: () => import("../../functions/settlement/create-quote"),
    routes: [
      { method: "POST", path: "/api/integrations/settlements/quotes", operationId: "createSettlementQuote" },
    ],
  },
  {
    load: () => import("../../functions/settlement/get-order"),
    routes: [
      {
        method: "GET",
        path: "/api/integrations/settlements/orders/:orderId",
        operationId: "getSettlementOrder",
      },
    ],
  },
  {
    load: () => import("../../functions/settlement/list-chains"),
    routes: [
      {
        method: "GET",
        path: "/api/integrations/settlements/chains",
        operationId: "listSettlementSourceChains",
      },
    ],
  },
  {
    load: () => import("../../functions/settlement/list-orders"),
    routes: [
      { method: "GET", path: "/api/integrations/settlements/orders", operationId: "listSettlementOrders" },
    ],
  },
  {
    load: () => import("../../functions/settlement/submit-burn"),
    routes: [
      {
        method: "POST",
        path: "/api/integrations/settlements/orders/:orderId/burn",
        operationId: "submitSettlementBurn",
      },
    ],
  },
  {
    load: () => import("../../functions/swaps/confirm-swap"),
    routes: [
      { method: "POST", path: "/api/integrations/swaps/:intentId/confirm", operationId: "confirmSwap" },
    ],
  },
  {
    load: () => import("../../functions/swaps/get-swap"),
    routes: [
      { method: "GET", path: "/api/integrations/swaps/:intentId", operationId: "getSwap" },
    ],
  },
  {
    load: () => import("../../functions/swaps/list-swaps"),
    routes: [
      { method: "GET", path: "/api/integrations/swaps", operationId: "listSwaps" },
    ],
  },
  {
    load: () => import("../../functions/swaps/prepare-swap"),
    routes: [
      { method: "POST", path: "/api/integrations/swaps/prepare", operationId: "prepareSwap" },
    ],
  },
  {
    load: () => import("../../functions/tenancy/admin-add-member"),
    routes: [
      {
        method: "POST",
        path: "/admin/organizations/:organizationId/members",
        operationId: "adminAddOrganizationMember",
      },
    ],
  },
  {
    load: () => import("../../functions/tenancy/admin-create-api-key"),
    routes: [
      { method: "POST", path: "/admin/integrations/:integrationId/keys", operationId: "adminCreateApiKey" },
    ],
  },
  {
    load: () => import("../../functions/tenancy/admin-create-integration"),
    routes: [
      {
        method: "POST",
        path: "/admin/organizations/:organizationId/integrations",
        operationId: "adminCreateIntegration",
      },
    ],
  },
  {
    load: () => import("../../functions/tenancy/admin-create-organization"),
    routes: [
      { method: "POST", path: "/admin/organizations", operationId: "adminCreateOrganization" },
    ],
  },
  {
    load: () => import("../../functions/tenancy/admin-get-organization"),
    routes: [
      { method: "GET", path: "/admin/organizations/:organizationId", operationId: "adminGetOrganization" },
    ],
  },
  {
    load: () => import("../../functions/tenancy/admin-list-api-keys"),
    routes: [
      { method: "GET", path: "/admin/integrations/:integrationId/keys", operationId: "adminListApiKeys" },
    ],
  },
  {
    load: () => import("../../functions/tenancy/admin-list-members"),
    routes: [
      {
        method: "GET",
        path: "/admin/organizations/:organizationId/members",
        operationId: "adminListOrganizationMembers",
      },
    ],
  },
  {
    load: () => import("../../functions/tenancy/admin-list-organizations"),
    routes: [
      { method: "GET", path: "/admin/organizations", operationId: "adminListOrganizations" },
    ],
  },
  {
    load: () => import("../../functions/tenancy/admin-reset-member-two-factor"),
    routes: [
      {
        method: "DELETE",
        path: "/admin/organizations/:organizationId/members/:memberId/two-factor",
        operationId: "adminResetOrganizationMemberTwoFactor",
      },
    ],
  },
  {
    load: () => import("../../functions/tenancy/admin-revoke-api-key"),
    routes: [
      {
        method: "DELETE",
        path: "/admin/integrations/:integrationId/keys/:keyId",
        operationId: "adminRevokeApiKey",
      },
    ],
  },
  {
    load: () => import("../../functions/tenancy/admin-revoke-member"),
    routes: [
      {
        method: "DELETE",
        path: "/admin/organizations/:organizationId/members/:memberId",
        operationId: "adminRevokeOrganizationMember",
      },
    ],
  },
  {
    load: () => import("../../functions/tenancy/admin-update-api-key"),
    routes: [
      {
        method: "PATCH",
        path: "/admin/integrations/:integrationId/keys/:keyId",
        operationId: "adminUpdateApiKey",
      },
    ],
  },
  {
    load: () => import("../../functions/tenancy/admin-update-member"),
    routes: [
      {
        method: "PATCH",
        path: "/admin/organizations/:organizationId/members/:memberId",
        operationId: "adminUpdateOrganizationMember",
      },
    ],
  },
  {
    load: () => import("../../functions/tenancy/admin-update-organization"),
    routes: [
      {
        method: "PATCH",
        path: "/admin/organizations/:organizationId",
        operationId: "adminUpdateOrganization",
      },
    ],
  },
  {
    load: () => import("../../functions/webhooks/admin-delete-endpoint"),
    routes: [
      {
        method: "DELETE",
        path: "/admin/integrations/:integrationId/webhook-endpoint",
        operationId: "adminDeleteWebhookEndpoint",
      },
    ],
  },
  {
    load: () => import("../../functions/webhooks/admin-get-endpoint"),
    routes: [
      {
        method: "GET",
        path: "/admin/integrations/:integrationId/webhook-endpoint",
        operationId: "adminGetWebhookEndpoint",
      },
    ],
  },
  {
    load: () => import("../../functions/webhooks/admin-list-deliveries"),
    routes: [
      { method: "GET", path: "/admin/webhooks/deliveries", operationId: "adminListWebhookDeliveries" },
    ],
  },
  {
    load: () => import("../../functions/webhooks/admin-list-failing-endpoints"),
    routes: [
      {
        method: "GET",
        path: "/admin/webhooks/failing-endpoints",
        operationId: "adminListFailingWebhookEndpoints",
      },
    ],
  },
  {
    load: () => import("../../functions/webhooks/admin-put-endpoint"),
    routes: [
      {
        method: "PUT",
        path: "/admin/integrations/:integrationId/webhook-endpoint",
        operationId: "adminPutWebhookEndpoint",
      },
    ],
  },
  {
    load: () => import("../../functions/webhooks/admin-rotate-secret"),
    routes: [
      {
        method: "POST",
        path: "/admin/integrations/:integrationId/webhook-endpoint/rotate-secret",
        operationId: "adminRotateWebhookSecret",
      },
    ],
  },
  {
    load: () => import("../../functions/webhooks/admin-send-test-event"),
    routes: [
      {
        method: "POST",
        path: "/admin/integrations/:integrationId/webhook-endpoint/test",
        operationId: "adminSendWebhookTestEvent",
      },
    ],
  },
  {
    load: () => import("../../functions/webhooks/catalog"),
    routes: [],
  },
  {
    load: () => import("../../functions/webhooks/delete-endpoint"),
    routes: [
      { method: "DELETE", path: "/api/integrations/webhooks/endpoint", operationId: "deleteWebhookEndpoint" },
    ],
  },
  {
    load: () => import("../../functions/webhooks/get-endpoint"),
    routes: [
      { method: "GET", path: "/api/integrations/webhooks/endpoint", operationId: "getWebhookEndpoint" },
    ],
  },
  {
    load: () => import("../../functions/webhooks/list-deliveries"),
    routes: [
      { method: "GET", path: "/api/integrations/webhooks/deliveries", operationId: "listWebhookDeliveries" },
    ],
  },
  {
    load: () => import("../../functions/webhooks/list-events"),
    routes: [
      { method: "GET", path: "/api/integrations/webhooks/events", operationId: "listWebhookEvents" },
    ],
  },
  {
    load: () => import("../../functions/webhooks/put-endpoint"),
    routes: [
      { method: "PUT", path: "/api/integrations/webhooks/endpoint", operationId: "putWebhookEndpoint" },
    ],
  },
  {
    load: () => import("../../functions/webhooks/replay-event"),
    routes: [
      {
        method: "POST",
        path: "/api/integrations/webhooks/events/:eventId/replay",
        operationId: "replayWebhookEvent",
      },
    ],
  },
  {
    load: () => import("../../functions/webhooks/rotate-secret"),
    routes: [
      {
        method: "POST",
        path: "/api/integrations/webhooks/endpoint/rotate-secret",
        operationId: "rotateWebhookSecret",
      },
    ],
  },
  {
    load: () => import("../../functions/webhooks/send-test-event"),
    routes: [
      {
        method: "POST",
        path: "/api/integrations/webhooks/endpoint/test",
        operationId: "sendWebhookTestEvent",
      },
    ],
  },
];
