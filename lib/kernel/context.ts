import type { Providers } from "../composition/providers";
import type { SettlementSetup } from "../settlement/context";
import type { ChainRegistry } from "./chain/registry";
import type { Clock } from "./clock";
import type { Config } from "./config";
import type { Database } from "./db/database";
import type { Jobs } from "./jobs/jobs";
import type { Logger } from "./log";

/**
 * What every domain verb receives. Verbs import nothing from Hono, so the same verb runs in a
 * route, a job, the cron sweep, a test or a script.
 */
export interface ServiceContext {
  db: Database;
  clock: Clock;
  jobs: Jobs;
  chains: ChainRegistry;
  config: Config;
  log: Logger;
  providers: Providers;
  settlement: SettlementSetup;
}
