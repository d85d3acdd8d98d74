// Made by `npm run docs` (dev/operations-table.ts) from the route modules under functions/: each module
// that exports `register` is one operation. Edit the modules, not this file.
import type { LazyOperation } from "../../http/lazy-operations";

/** The operations of functions/platform/. */
export const PLATFORM_OPERATIONS: readonly LazyOperation[] = [
  {
    load: () => import("../../../functions/platform/docs"),
    routes: [
      { method: "GET", path: "/docs" },
    ],
  },
  {
    load: () => import("../../../functions/platform/health"),
    routes: [
      { method: "GET", path: "/health", operationId: "getHealth" },
    ],
  },
  {
    load: () => import("../../../functions/platform/run-job"),
    routes: [
      { method: "POST", path: "/internal/jobs/:kind" },
    ],
  },
  {
    load: () => import("../../../functions/platform/status"),
    routes: [
      { method: "GET", path: "/status", operationId: "getStatus" },
    ],
  },
];
