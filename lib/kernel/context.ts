import type { AfterWork } from "./after-work";
import type { ChainRegistry } from "./chain/registry";
import type { Clock } from "./clock";
import type { Config } from "./config";
import type { Database } from "./db/database";
import type { Jobs } from "./jobs/jobs";
import type { Logger } from "./log";

/**
 * What every domain verb receives: the kernel's parts. An area whose verbs need outside parties
 * extends it with the ports it owns (SettlementServices, IdentityServices, PayoutServices,
 * WebhookServices), so the kernel names no area. Verbs import nothing from Hono, so the same verb
 * runs in a route, a job, the cron sweep, a test or a script.
 */
export interface ServiceContext {
  db: Database;
  clock: Clock;
  jobs: Jobs;
  chains: ChainRegistry;
  config: Config;
  log: Logger;
  /** Work for when this unit ends and its transactions have committed (lib/kernel/after-work.ts). */
  afterWork: AfterWork<ServiceContext>;
  /**
   * Who asked for what this request changes, as its authentication found them: what the audit log
   * records. Absent for jobs, the sweep and scripts (the service itself).
   */
  actor?: Actor;
}

interface Actor {
  type: "member" | "operator" | "api_key";
  /** The member's id, the key's id, or "operator". */
  id: string;
  /** The client address the runtime vouches for, when it can. */
  ip: string | null;
}
