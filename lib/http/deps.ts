import type { ChainRegistry } from "../chain/registry";
import type { Clock } from "../clock";
import type { Config } from "../config";
import type { DatabaseProvider } from "../db/database";
import type { AnyJobDefinition } from "../jobs/catalog";
import type { Jobs } from "../jobs/jobs";
import type { JobSignatureVerifier } from "../jobs/qstash";
import type { Logger } from "../log";
import type { Providers } from "../providers/providers";
import type { RateLimits } from "../rate-limit";
import type { SettlementSetup } from "../settlement/context";
import type { SweepHook } from "../sweep";
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
