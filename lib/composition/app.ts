import type { OpenAPIHono } from "@hono/zod-openapi";
import * as listAuditLog from "../../functions/audit/list-audit-log";
import * as listRequestLogs from "../../functions/audit/list-request-logs";
import * as adminAllowAddress from "../../functions/compliance/admin-allow-address";
import * as adminDenyAddress from "../../functions/compliance/admin-deny-address";
import * as adminListDeniedAddresses from "../../functions/compliance/admin-list-denied";
import * as adminMovementsReport from "../../functions/compliance/admin-movements-report";
import * as getBrebKyc from "../../functions/identity/get-kyc";
import * as kycCallback from "../../functions/identity/kyc-callback";
import * as sendBrebOtp from "../../functions/identity/send-otp";
import * as verifyBrebOtp from "../../functions/identity/verify-otp";
import * as createBrebWalletChallenge from "../../functions/identity/wallet-challenge";
import * as openBrebWalletSession from "../../functions/identity/wallet-session";
import * as getStatement from "../../functions/ledger/get-statement";
import * as getTransaction from "../../functions/ledger/get-transaction";
import * as adminListPayoutsForOperator from "../../functions/payouts/admin-attention";
import * as adminRefundPayout from "../../functions/payouts/admin-refund";
import * as confirmBrebPayout from "../../functions/payouts/confirm-payout";
import * as createBrebPayout from "../../functions/payouts/create-payout";
import * as getBrebPayout from "../../functions/payouts/get-payout";
import * as quoteBrebPayout from "../../functions/payouts/get-quote";
import * as listBrebPayouts from "../../functions/payouts/list-payouts";
import * as brebCallback from "../../functions/payouts/provider-callback";
import * as docs from "../../functions/platform/docs";
import * as health from "../../functions/platform/health";
import * as runJob from "../../functions/platform/run-job";
import * as status from "../../functions/platform/status";
import * as adminGetReconciliation from "../../functions/reconciliation/admin-get-report";
import * as sandboxFaucet from "../../functions/sandbox/faucet";
import * as sandboxNetwork from "../../functions/sandbox/get-network";
import * as sandboxSanction from "../../functions/sandbox/sanctions";
import * as adminGetHealth from "../../functions/settlement/admin-health";
import * as adminListStuckSettlements from "../../functions/settlement/admin-list-stuck";
import * as adminListUnclaimedMints from "../../functions/settlement/admin-list-unclaimed";
import * as adminReleaseSettlementHold from "../../functions/settlement/admin-release-hold";
import * as adminRetrySettlement from "../../functions/settlement/admin-retry";
import * as adminReturnSettlement from "../../functions/settlement/admin-return";
import * as adminRedirectSettlementReturn from "../../functions/settlement/admin-return-to";
import * as adminReturnUnclaimedMint from "../../functions/settlement/admin-return-unclaimed";
import * as adminBookRouteRefund from "../../functions/settlement/admin-route-refund";
import * as createSettlementOrder from "../../functions/settlement/create-order";
import * as createSettlementQuote from "../../functions/settlement/create-quote";
import * as getSettlementOrder from "../../functions/settlement/get-order";
import * as listSettlementSourceChains from "../../functions/settlement/list-chains";
import * as listSettlementOrders from "../../functions/settlement/list-orders";
import * as submitSettlementBurn from "../../functions/settlement/submit-burn";
import * as confirmSwap from "../../functions/swaps/confirm-swap";
import * as getSwap from "../../functions/swaps/get-swap";
import * as listSwaps from "../../functions/swaps/list-swaps";
import * as prepareSwap from "../../functions/swaps/prepare-swap";
import * as adminAddOrganizationMember from "../../functions/tenancy/admin-add-member";
import * as adminCreateApiKey from "../../functions/tenancy/admin-create-api-key";
import * as adminCreateIntegration from "../../functions/tenancy/admin-create-integration";
import * as adminCreateOrganization from "../../functions/tenancy/admin-create-organization";
import * as adminGetOrganization from "../../functions/tenancy/admin-get-organization";
import * as adminListApiKeys from "../../functions/tenancy/admin-list-api-keys";
import * as adminListOrganizationMembers from "../../functions/tenancy/admin-list-members";
import * as adminListOrganizations from "../../functions/tenancy/admin-list-organizations";
import * as adminResetOrganizationMemberTwoFactor from "../../functions/tenancy/admin-reset-member-two-factor";
import * as adminRevokeApiKey from "../../functions/tenancy/admin-revoke-api-key";
import * as adminRevokeOrganizationMember from "../../functions/tenancy/admin-revoke-member";
import * as adminUpdateApiKey from "../../functions/tenancy/admin-update-api-key";
import * as adminUpdateOrganizationMember from "../../functions/tenancy/admin-update-member";
import * as adminUpdateOrganization from "../../functions/tenancy/admin-update-organization";
import * as adminDeleteWebhookEndpoint from "../../functions/webhooks/admin-delete-endpoint";
import * as adminGetWebhookEndpoint from "../../functions/webhooks/admin-get-endpoint";
import * as adminListWebhookDeliveries from "../../functions/webhooks/admin-list-deliveries";
import * as adminListFailingWebhookEndpoints from "../../functions/webhooks/admin-list-failing-endpoints";
import * as adminPutWebhookEndpoint from "../../functions/webhooks/admin-put-endpoint";
import * as adminRotateWebhookSecret from "../../functions/webhooks/admin-rotate-secret";
import * as adminSendWebhookTestEvent from "../../functions/webhooks/admin-send-test-event";
import * as webhookCatalog from "../../functions/webhooks/catalog";
import * as deleteWebhookEndpoint from "../../functions/webhooks/delete-endpoint";
import * as getWebhookEndpoint from "../../functions/webhooks/get-endpoint";
import * as listWebhookDeliveries from "../../functions/webhooks/list-deliveries";
import * as listWebhookEvents from "../../functions/webhooks/list-events";
import * as putWebhookEndpoint from "../../functions/webhooks/put-endpoint";
import * as replayWebhookEvent from "../../functions/webhooks/replay-event";
import * as rotateWebhookSecret from "../../functions/webhooks/rotate-secret";
import * as sendWebhookTestEvent from "../../functions/webhooks/send-test-event";
import { createBaseApp, openApiConfig } from "../http/app";
import type { AppDeps } from "../http/deps";
import type { AppEnv } from "../http/env";
import { declareOperationScopes } from "../http/operation-scopes";
import { forwardPages } from "../http/pages";

/**
 * Every operation the API worker serves. One module per operation, each with a `register`. The
 * dashboard and the miniapp are the pages worker's (lib/composition/pages.ts).
 */
const operations: ReadonlyArray<{ register(app: OpenAPIHono<AppEnv>): void }> = [
  health,
  status,
  docs,
  runJob,
  adminCreateOrganization,
  adminListOrganizations,
  adminGetOrganization,
  adminUpdateOrganization,
  adminCreateIntegration,
  adminCreateApiKey,
  adminListApiKeys,
  adminRevokeApiKey,
  adminUpdateApiKey,
  adminAddOrganizationMember,
  adminListOrganizationMembers,
  adminRevokeOrganizationMember,
  adminUpdateOrganizationMember,
  adminResetOrganizationMemberTwoFactor,
  adminDenyAddress,
  adminAllowAddress,
  adminListDeniedAddresses,
  adminMovementsReport,
  adminListStuckSettlements,
  adminRetrySettlement,
  adminReturnSettlement,
  adminReleaseSettlementHold,
  adminRedirectSettlementReturn,
  adminBookRouteRefund,
  adminListUnclaimedMints,
  adminReturnUnclaimedMint,
  adminRefundPayout,
  adminListPayoutsForOperator,
  adminPutWebhookEndpoint,
  adminGetWebhookEndpoint,
  adminDeleteWebhookEndpoint,
  adminRotateWebhookSecret,
  adminSendWebhookTestEvent,
  adminListFailingWebhookEndpoints,
  adminListWebhookDeliveries,
  adminGetReconciliation,
  adminGetHealth,
  sandboxNetwork,
  sandboxFaucet,
  sandboxSanction,
  createSettlementQuote,
  createSettlementOrder,
  getSettlementOrder,
  listSettlementSourceChains,
  listAuditLog,
  listRequestLogs,
  listSettlementOrders,
  submitSettlementBurn,
  listWebhookEvents,
  putWebhookEndpoint,
  getWebhookEndpoint,
  deleteWebhookEndpoint,
  rotateWebhookSecret,
  sendWebhookTestEvent,
  listWebhookDeliveries,
  replayWebhookEvent,
  webhookCatalog,
  createBrebWalletChallenge,
  openBrebWalletSession,
  sendBrebOtp,
  verifyBrebOtp,
  getBrebKyc,
  quoteBrebPayout,
  createBrebPayout,
  confirmBrebPayout,
  getBrebPayout,
  listBrebPayouts,
  kycCallback,
  brebCallback,
  prepareSwap,
  listSwaps,
  getSwap,
  confirmSwap,
  getTransaction,
  getStatement,
];

/**
 * The OpenAPI document alone, for tools (the SDK's generator): registering the routes reads no
 * dependency, and the document names `publicUrl` as its server.
 */
export function openApiDocument(publicUrl: string) {
  const app = buildApp({ config: { PUBLIC_URL: publicUrl } } as AppDeps);
  return app.getOpenAPI31Document(openApiConfig(publicUrl));
}

export function buildApp(deps: AppDeps): OpenAPIHono<AppEnv> {
  const app = createBaseApp(deps);
  if (deps.pages) forwardPages(app, deps.pages);
  for (const operation of operations) operation.register(app);
  declareOperationScopes(app);
  return app;
}
