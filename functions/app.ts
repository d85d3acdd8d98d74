import type { OpenAPIHono } from "@hono/zod-openapi";
import { createBaseApp } from "../lib/http/app";
import type { AppDeps } from "../lib/http/deps";
import type { AppEnv } from "../lib/http/env";
import * as dashboard from "./dashboard/routes";
import * as getBrebKyc from "./identity/get-kyc";
import * as kycCallback from "./identity/kyc-callback";
import * as sendBrebOtp from "./identity/send-otp";
import * as verifyBrebOtp from "./identity/verify-otp";
import * as createBrebWalletChallenge from "./identity/wallet-challenge";
import * as openBrebWalletSession from "./identity/wallet-session";
import * as miniappPage from "./miniapp/get-page";
import * as confirmBrebPayout from "./payouts/confirm-payout";
import * as createBrebPayout from "./payouts/create-payout";
import * as getBrebPayout from "./payouts/get-payout";
import * as quoteBrebPayout from "./payouts/get-quote";
import * as listBrebPayouts from "./payouts/list-payouts";
import * as brebCallback from "./payouts/provider-callback";
import * as docs from "./platform/docs";
import * as health from "./platform/health";
import * as runJob from "./platform/run-job";
import * as sandboxFaucet from "./sandbox/faucet";
import * as sandboxNetwork from "./sandbox/get-network";
import * as adminListStuckSettlements from "./settlement/admin-list-stuck";
import * as adminRetrySettlement from "./settlement/admin-retry";
import * as createSettlementOrder from "./settlement/create-order";
import * as createSettlementQuote from "./settlement/create-quote";
import * as getSettlementOrder from "./settlement/get-order";
import * as listSettlementOrders from "./settlement/list-orders";
import * as submitSettlementBurn from "./settlement/submit-burn";
import * as confirmSwap from "./swaps/confirm-swap";
import * as getSwap from "./swaps/get-swap";
import * as listSwaps from "./swaps/list-swaps";
import * as prepareSwap from "./swaps/prepare-swap";
import * as adminAddOrganizationMember from "./tenancy/admin-add-member";
import * as adminCreateApiKey from "./tenancy/admin-create-api-key";
import * as adminCreateIntegration from "./tenancy/admin-create-integration";
import * as adminCreateOrganization from "./tenancy/admin-create-organization";
import * as adminGetOrganization from "./tenancy/admin-get-organization";
import * as adminListApiKeys from "./tenancy/admin-list-api-keys";
import * as adminListOrganizationMembers from "./tenancy/admin-list-members";
import * as adminListOrganizations from "./tenancy/admin-list-organizations";
import * as adminRevokeApiKey from "./tenancy/admin-revoke-api-key";
import * as adminRevokeOrganizationMember from "./tenancy/admin-revoke-member";
import * as adminUpdateOrganization from "./tenancy/admin-update-organization";
import * as adminDeleteWebhookEndpoint from "./webhooks/admin-delete-endpoint";
import * as adminGetWebhookEndpoint from "./webhooks/admin-get-endpoint";
import * as adminListWebhookDeliveries from "./webhooks/admin-list-deliveries";
import * as adminListFailingWebhookEndpoints from "./webhooks/admin-list-failing-endpoints";
import * as adminPutWebhookEndpoint from "./webhooks/admin-put-endpoint";
import * as adminRotateWebhookSecret from "./webhooks/admin-rotate-secret";
import * as adminSendWebhookTestEvent from "./webhooks/admin-send-test-event";
import * as webhookCatalog from "./webhooks/catalog";
import * as deleteWebhookEndpoint from "./webhooks/delete-endpoint";
import * as getWebhookEndpoint from "./webhooks/get-endpoint";
import * as listWebhookDeliveries from "./webhooks/list-deliveries";
import * as listWebhookEvents from "./webhooks/list-events";
import * as putWebhookEndpoint from "./webhooks/put-endpoint";
import * as replayWebhookEvent from "./webhooks/replay-event";
import * as rotateWebhookSecret from "./webhooks/rotate-secret";
import * as sendWebhookTestEvent from "./webhooks/send-test-event";

/** Every operation the worker serves. One module per operation, each with a `register`. */
const operations: ReadonlyArray<{ register(app: OpenAPIHono<AppEnv>): void }> = [
  health,
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
  adminAddOrganizationMember,
  adminListOrganizationMembers,
  adminRevokeOrganizationMember,
  adminListStuckSettlements,
  adminRetrySettlement,
  adminPutWebhookEndpoint,
  adminGetWebhookEndpoint,
  adminDeleteWebhookEndpoint,
  adminRotateWebhookSecret,
  adminSendWebhookTestEvent,
  adminListFailingWebhookEndpoints,
  adminListWebhookDeliveries,
  sandboxNetwork,
  sandboxFaucet,
  createSettlementQuote,
  createSettlementOrder,
  getSettlementOrder,
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
  miniappPage,
  dashboard,
  kycCallback,
  brebCallback,
  prepareSwap,
  listSwaps,
  getSwap,
  confirmSwap,
];

export function buildApp(deps: AppDeps): OpenAPIHono<AppEnv> {
  const app = createBaseApp(deps);
  for (const operation of operations) operation.register(app);
  return app;
}
