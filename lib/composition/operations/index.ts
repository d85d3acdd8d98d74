// Made by `npm run docs` (dev/operations-table.ts) from the route modules under functions/: each module
// that exports `register` is one operation. Edit the modules, not this file.
import type { LazyOperation } from "../../http/lazy-operations";

import { AUDIT_OPERATIONS } from "./audit";
import { COMPLIANCE_OPERATIONS } from "./compliance";
import { IDENTITY_OPERATIONS } from "./identity";
import { LEDGER_OPERATIONS } from "./ledger";
import { PAYOUTS_OPERATIONS } from "./payouts";
import { PLATFORM_OPERATIONS } from "./platform";
import { RECONCILIATION_OPERATIONS } from "./reconciliation";
import { SANDBOX_OPERATIONS } from "./sandbox";
import { SETTLEMENT_OPERATIONS } from "./settlement";
import { SWAPS_OPERATIONS } from "./swaps";
import { TENANCY_OPERATIONS } from "./tenancy";
import { WEBHOOKS_OPERATIONS } from "./webhooks";

/**
 * Every operation the API worker serves, with the routes each registers: the worker routes a
 * request by this table and loads the operation's module at its first request (lib/http/lazy-operations.ts).
 */
export const API_OPERATIONS: readonly LazyOperation[] = [
  ...AUDIT_OPERATIONS,
  ...COMPLIANCE_OPERATIONS,
  ...IDENTITY_OPERATIONS,
  ...LEDGER_OPERATIONS,
  ...PAYOUTS_OPERATIONS,
  ...PLATFORM_OPERATIONS,
  ...RECONCILIATION_OPERATIONS,
  ...SANDBOX_OPERATIONS,
  ...SETTLEMENT_OPERATIONS,
  ...SWAPS_OPERATIONS,
  ...TENANCY_OPERATIONS,
  ...WEBHOOKS_OPERATIONS,
];
