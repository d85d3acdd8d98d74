// Made by `npm run docs` (dev/operations-table.ts) from the route modules under functions/: each module
// that exports `register` is one operation. Edit the modules, not this file.
import type { LazyOperation } from "../../http/lazy-operations";

/** The operations of functions/reconciliation/. */
export const RECONCILIATION_OPERATIONS: readonly LazyOperation[] = [
  {
    load: () => import("../../../functions/reconciliation/admin-get-report"),
    routes: [
      { method: "GET", path: "/admin/reconciliation", operationId: "adminGetReconciliation" },
    ],
  },
];
