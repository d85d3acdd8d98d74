import type { OpenAPIHono } from "@hono/zod-openapi";
import { createBaseApp } from "../lib/http/app";
import type { AppDeps } from "../lib/http/deps";
import type { AppEnv } from "../lib/http/env";
import * as adminCreateApiKey from "./admin/create-api-key";
import * as adminCreateIntegration from "./admin/create-integration";
import * as adminCreateOrganization from "./admin/create-organization";
import * as adminGetOrganization from "./admin/get-organization";
import * as adminListApiKeys from "./admin/list-api-keys";
import * as adminListOrganizations from "./admin/list-organizations";
import * as adminListStuckSettlements from "./admin/list-stuck-settlements";
import * as adminRetrySettlement from "./admin/retry-settlement";
import * as adminRevokeApiKey from "./admin/revoke-api-key";
import * as adminUpdateOrganization from "./admin/update-organization";
import * as docs from "./docs";
import * as health from "./health";
import * as runJob from "./jobs/run-job";
import * as sandboxFaucet from "./sandbox/faucet";
import * as sandboxNetwork from "./sandbox/get-network";
import * as createSettlementOrder from "./settlements/create-order";
import * as createSettlementQuote from "./settlements/create-quote";
import * as getSettlementOrder from "./settlements/get-order";
import * as submitSettlementBurn from "./settlements/submit-burn";
import * as listWebhookEvents from "./webhooks/list-events";

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
  adminListStuckSettlements,
  adminRetrySettlement,
  sandboxNetwork,
  sandboxFaucet,
  createSettlementQuote,
  createSettlementOrder,
  getSettlementOrder,
  submitSettlementBurn,
  listWebhookEvents,
];

export function buildApp(deps: AppDeps): OpenAPIHono<AppEnv> {
  const app = createBaseApp(deps);
  for (const operation of operations) operation.register(app);
  return app;
}
