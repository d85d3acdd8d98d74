import type { IdentityProviders } from "../identity/ports";
import { AfterWork } from "../kernel/after-work";
import type { ChainRegistry } from "../kernel/chain/registry";
import type { Clock } from "../kernel/clock";
import type { Config } from "../kernel/config";
import type { ServiceContext } from "../kernel/context";
import type { Database, DatabaseProvider } from "../kernel/db/database";
import type { AnyJobDefinition } from "../kernel/jobs/definition";
import type { Jobs } from "../kernel/jobs/jobs";
import type { JobSignatureVerifier } from "../kernel/jobs/qstash";
import type { Logger } from "../kernel/log";
import type { RateLimits } from "../kernel/rate-limit";
import type { SweepHook } from "../kernel/sweep";
import type { PayoutProviders } from "../payouts/breb-provider";
import type { SettlementProviders, SettlementSetup } from "../settlement";
import type { WebhookPost } from "../webhooks/post";
import type { ClientAddressOf } from "./client-address";

/** Every area's ports together: what the composition root builds (lib/composition/providers.ts). */
export interface Providers extends SettlementProviders {
  identity: IdentityProviders;
  payouts: PayoutProviders;
  /** Sends a webhook attempt, judging the addresses its host resolves to (the runtime's way). */
  webhookPost: WebhookPost;
}

/** What a route hands the verbs it calls: the kernel's context with every area's ports and setup. */
export interface AppServices extends ServiceContext {
  providers: Providers;
  settlement: SettlementSetup;
}

/** Everything the app is built from. The worker, the tests and scripts each supply their own. */
export interface AppDeps {
  config: Config;
  database: DatabaseProvider;
  clock: Clock;
  jobs: Jobs;
  jobVerifier: JobSignatureVerifier;
  chains: ChainRegistry;
  logger: Logger;
  jobCatalog: readonly AnyJobDefinition<AppServices>[];
  sweepHooks: readonly SweepHook<AppServices>[];
  rateLimits: RateLimits;
  providers: Providers;
  settlement: SettlementSetup;
  /** The client's address for per-IP limits, as this runtime can vouch for it. */
  clientAddress: ClientAddressOf;
  /** Where work that outlives a response is kept off Workers (lib/http/after-response.ts). */
  pendingWork?: PendingWork;
  /** The pages worker the API worker forwards the dashboard and miniapp to; the pages worker has none. */
  pages?: PagesWorker;
}

/** The pages worker as the API worker reaches it: a service binding in Workers, the pages app in-process in tests (lib/http/pages.ts). */
export interface PagesWorker {
  fetch(request: Request): Promise<Response>;
}

/** Where a runtime without Workers' waitUntil keeps work that outlives its response (tests await it). */
interface PendingWork {
  track(work: Promise<unknown>): void;
}

/** One request's, job's or sweep's services: the deps with its database session and logger. */
export function serviceContext(deps: AppDeps, db: Database, log: Logger): AppServices {
  return {
    db,
    clock: deps.clock,
    jobs: deps.jobs,
    chains: deps.chains,
    config: deps.config,
    log,
    afterWork: new AfterWork(),
    providers: deps.providers,
    settlement: deps.settlement,
  };
}
