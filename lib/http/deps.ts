import type { AnyJobDefinition } from "../composition/job-catalog";
import type { Providers } from "../composition/providers";
import type { ChainRegistry } from "../kernel/chain/registry";
import type { Clock } from "../kernel/clock";
import type { Config } from "../kernel/config";
import type { DatabaseProvider } from "../kernel/db/database";
import type { Jobs } from "../kernel/jobs/jobs";
import type { JobSignatureVerifier } from "../kernel/jobs/qstash";
import type { Logger } from "../kernel/log";
import type { RateLimits } from "../kernel/rate-limit";
import type { SweepHook } from "../kernel/sweep";
import type { SettlementSetup } from "../settlement/context";
import type { PendingWork } from "./after-response";
import type { ClientAddressOf } from "./client-address";

/** Everything the app is built from. The worker, the tests and scripts each supply their own. */
export interface AppDeps {
  config: Config;
  database: DatabaseProvider;
  clock: Clock;
  jobs: Jobs;
  jobVerifier: JobSignatureVerifier;
  chains: ChainRegistry;
  logger: Logger;
  jobCatalog: readonly AnyJobDefinition[];
  sweepHooks: readonly SweepHook[];
  rateLimits: RateLimits;
  providers: Providers;
  settlement: SettlementSetup;
  /** The client's address for per-IP limits, as this runtime can vouch for it. */
  clientAddress: ClientAddressOf;
  /** Where work that outlives a response is kept off Workers (lib/http/after-response.ts). */
  pendingWork?: PendingWork;
}
