// Made by `npm run docs` (dev/operations-table.ts) from the route modules under functions/: each module
// that exports `register` is one operation. Edit the modules, not this file.
import type { LazyOperation } from "../../http/lazy-operations";

/** The operations of functions/compliance/. */
export const COMPLIANCE_OPERATIONS: readonly LazyOperation[] = [
  {
    load: () => import("../../../functions/compliance/admin-allow-address"),
    routes: [
      {
        method: "DELETE",
        path: "/admin/compliance/denied-addresses/:address",
        operationId: "adminAllowAddress",
      },
    ],
  },
  {
    load: () => import("../../../functions/compliance/admin-deny-address"),
    routes: [
      { method: "POST", path: "/admin/compliance/denied-addresses", operationId: "adminDenyAddress" },
    ],
  },
  {
    load: () => import("../../../functions/compliance/admin-list-denied"),
    routes: [
      { method: "GET", path: "/admin/compliance/denied-addresses", operationId: "adminListDeniedAddresses" },
    ],
  },
  {
    load: () => import("../../../functions/compliance/admin-movements-report"),
    routes: [
      {
        method: "GET",
        path: "/admin/organizations/:organizationId/compliance/movements",
        operationId: "adminMovementsReport",
      },
    ],
  },
];
