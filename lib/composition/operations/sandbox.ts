// Made by `npm run docs` (dev/operations-table.ts) from the route modules under functions/: each module
// that exports `register` is one operation. Edit the modules, not this file.
import type { LazyOperation } from "../../http/lazy-operations";

/** The operations of functions/sandbox/. */
export const SANDBOX_OPERATIONS: readonly LazyOperation[] = [
  {
    load: () => import("../../../functions/sandbox/faucet"),
    routes: [
      { method: "POST", path: "/api/integrations/sandbox/faucet", operationId: "sandboxFaucet" },
    ],
  },
  {
    load: () => import("../../../functions/sandbox/get-network"),
    routes: [
      { method: "GET", path: "/api/integrations/sandbox/network", operationId: "getSandboxNetwork" },
    ],
  },
  {
    load: () => import("../../../functions/sandbox/sanctions"),
    routes: [
      { method: "POST", path: "/api/integrations/sandbox/sanctions", operationId: "sandboxSanction" },
    ],
  },
];
