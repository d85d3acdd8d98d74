// Made by `npm run docs` (dev/operations-table.ts) from the route modules under functions/: each module
// that exports `register` is one operation. Edit the modules, not this file.
import type { LazyOperation } from "../../http/lazy-operations";

/** The operations of functions/ledger/. */
export const LEDGER_OPERATIONS: readonly LazyOperation[] = [
  {
    load: () => import("../../../functions/ledger/get-statement"),
    routes: [
      { method: "GET", path: "/api/integrations/statements", operationId: "getStatement" },
    ],
  },
  {
    load: () => import("../../../functions/ledger/get-transaction"),
    routes: [
      { method: "GET", path: "/api/integrations/transactions/:txHash", operationId: "getTransaction" },
    ],
  },
];
