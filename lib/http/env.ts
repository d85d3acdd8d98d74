import type { DashboardMember } from "../dashboard/sessions";
import type { Language } from "../kernel/errors/error-body";
import type { Logger } from "../kernel/log";
import type { Caller } from "../tenancy/caller";
import type { ApiVersion } from "./api-versions";
import type { AppDeps, AppServices } from "./deps";

/** Hono's typing of what middleware puts on the context for routes to read. */
export interface AppEnv {
  Variables: {
    requestId: string;
    /** The dated version the response is rendered at (API-Version). */
    apiVersion: ApiVersion;
    log: Logger;
    deps: AppDeps;
    services: AppServices;
    /** Set by partnerAuth on partner routes only. */
    caller: Caller;
    /** Set by the dashboard's frame on /dashboard pages only. */
    dashboard: DashboardRequest;
  };
}

/** What the dashboard's frame learns of a request, for its pages. */
interface DashboardRequest {
  language: Language;
  member?: DashboardMember;
  /** The token every form of the page carries in `_csrf`. */
  csrfToken: string;
  /** Stands for this browser (the hash of its CSRF seed cookie): sign-in codes are bound to it. */
  browser: string;
}
