// Made by `npm run docs` (dev/operations-table.ts) from the route modules under functions/: each module
// that exports `register` is one operation. Edit the modules, not this file.
import type { LazyOperation } from "../../http/lazy-operations";

/** The operations of functions/swaps/. */
export const SWAPS_OPERATIONS: readonly LazyOperation[] = [
  {
    load: () => import("../../../functions/swaps/confirm-swap"),
    routes: [
      { method: "POST", path: "/api/integrations/swaps/:intentId/confirm", operationId: "confirmSwap" },
    ],
  },
  {
    load: () => import("../../../functions/swaps/get-swap"),
    routes: [
      { method: "GET", path: "/api/integrations/swaps/:intentId", operationId: "getSwap" },
    ],
  },
  {
    load: () => import("../../../functions/swaps/list-swaps"),
    routes: [
      { method: "GET", path: "/api/integrations/swaps", operationId: "listSwaps" },
    ],
  },
  {
    load: () => import("../../../functions/swaps/prepare-swap"),
    routes: [
      { method: "POST", path: "/api/integrations/swaps/prepare", operationId: "prepareSwap" },
    ],
  },
];
