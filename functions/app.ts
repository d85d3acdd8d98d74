import type { OpenAPIHono } from "@hono/zod-openapi";
import { createBaseApp } from "../lib/http/app";
import type { AppDeps } from "../lib/http/deps";
import type { AppEnv } from "../lib/http/env";
import * as adminAddOrganizationMember from "./admin/add-member";
import * as adminCreateApiKey from "./admin/create-api-key";
import * as adminCreateIntegration from "./admin/create-integration";
import * as adminCreateOrganization from "./admin/create-organization";
import * as adminDeleteWebhookEndpoint from "./admin/delete-webhook-endpoint";
import * as adminGetOrganization from "./admin/get-organization";
import * as adminGetWebhookEndpoint from "./admin/get-webhook-endpoint";
import * as adminListApiKeys from "./admin/list-api-keys";
import * as adminListFailingWebhookEndpoints from "./admin/list-failing-webhook-endpoints";
import * as adminListOrganizationMembers from "./admin/list-members";
import * as adminListOrganizations from "./admin/list-organizations";
import * as adminListStuckSettlements from "./admin/list-stuck-settlements";
import * as adminListWebhookDeliveries from "./admin/list-webhook-deliveries";
import * as adminPutWebhookEndpoint from "./admin/put-webhook-endpoint";
import * as adminRetrySettlement from "./admin/retry-settlement";
import * as adminRevokeApiKey from "./admin/revoke-api-key";
import * as adminRevokeOrganizationMember from "./admin/revoke-member";
import * as adminRotateWebhookSecret from "./admin/rotate-webhook-secret";
import * as adminSendWebhookTestEvent from "./admin/send-webhook-test-event";
import * as adminUpdateOrganization from "./admin/update-organization";
import * as confirmBrebPayout from "./breb/confirm-payout";
import * as createBrebPayout from "./breb/create-payout";
import * as getBrebKyc from "./breb/get-kyc";
import * as getBrebPayout from "./breb/get-payout";
import * as quoteBrebPayout from "./breb/get-quote";
import * as listBrebPayouts from "./breb/list-payouts";
import * as sendBrebOtp from "./breb/send-otp";
import * as verifyBrebOtp from "./breb/verify-otp";
import * as createBrebWalletChallenge from "./breb/wallet-challenge";
import * as openBrebWalletSession from "./breb/wallet-session";
import * as brebCallback from "./callbacks/breb";
import * as kycCallback from "./callbacks/kyc";
import * as dashboard from "./dashboard/routes";
import * as docs from "./docs";
import * as health from "./health";
import * as runJob from "./jobs/run-job";
import * as miniappPage from "./miniapp/get-page";
import * as sandboxFaucet from "./sandbox/faucet";
import * as sandboxNetwork from "./sandbox/get-network";
import * as createSettlementOrder from "./settlements/create-order";
import * as createSettlementQuote from "./settlements/create-quote";
import * as getSettlementOrder from "./settlements/get-order";
import * as listSettlementOrders from "./settlements/list-orders";
import * as submitSettlementBurn from "./settlements/submit-burn";
import * as confirmSwap from "./swaps/confirm-swap";
import * as getSwap from "./swaps/get-swap";
import * as listSwaps from "./swaps/list-swaps";
import * as prepareSwap from "./swaps/prepare-swap";
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
