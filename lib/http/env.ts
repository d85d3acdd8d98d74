import type { ServiceContext } from "../context";
import type { Logger } from "../log";
import type { AppDeps } from "./deps";

/** Hono's typing of what middleware puts on the context for routes to read. */
export interface AppEnv {
  Variables: {
    requestId: string;
    log: Logger;
    deps: AppDeps;
    services: ServiceContext;
  };
}
