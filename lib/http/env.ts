import type { ServiceContext } from "../context";
import type { Logger } from "../log";
import type { Caller } from "../tenancy/caller";
import type { AppDeps } from "./deps";

/** Hono's typing of what middleware puts on the context for routes to read. */
export interface AppEnv {
  Variables: {
    requestId: string;
    log: Logger;
    deps: AppDeps;
    services: ServiceContext;
    /** Set by partnerAuth on partner routes only. */
    caller: Caller;
  };
}
