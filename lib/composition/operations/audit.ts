// Made by `npm run docs` (dev/operations-table.ts) from the route modules under functions/: each module
// that exports `register` is one operation. Edit the modules, not this file.
import type { LazyOperation } from "../../http/lazy-operations";

/** The operations of functions/audit/. */
export const AUDIT_OPERATIONS: readonly LazyOperation[] = [
  {
    load: () => import("../../../functions/audit/list-audit-log"),
    routes: [
      { method: "GET", path: "/api/integrations/audit-log", operationId: "listAuditLog" },
    ],
  },
  {
    load: () => import("../../../functions/audit/list-request-logs"),
    routes: [
      { method: "GET", path: "/api/integrations/request-logs", operationId: "listRequestLogs" },
    ],
  },
];
