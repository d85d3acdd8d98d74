import { cloudflareClientAddress } from "../http/client-address";
import type { AppDeps, PagesWorker } from "../http/deps";
import { chainRegistry } from "../kernel/chain/registry";
import { type Clock, systemClock } from "../kernel/clock";
import type { Config, ConfigProblem } from "../kernel/config";
import { neonDatabase } from "../kernel/db/neon";
import { qstashJobs, qstashVerifier } from "../kernel/jobs/qstash";
import { createLogger } from "../kernel/log";
import { FixedWindowRateLimiter, type RateLimiter, type RateLimits } from "../kernel/rate-limit";
import { settlementSetup } from "../settlement";
import { jobCatalog } from "./job-catalog";
import { providersFor } from "./providers";
import { sweepHooks } from "./sweep-hooks";

const WORKER_REQUIRES = [
  "DATABASE_URL",
  "QSTASH_TOKEN",
  "QSTASH_CURRENT_SIGNING_KEY",
  "QSTASH_NEXT_SIGNING_KEY",
] as const;

/** Cloudflare's rate-limiting bindings, when wrangler.toml declares them. */
interface RateLimitBindings {
  PARTNER_KEY_RATE_LIMITER?: RateLimiter;
  ORGANIZATION_RATE_LIMITER?: RateLimiter;
  CLIENT_IP_RATE_LIMITER?: RateLimiter;
}

/** A worker's bindings: the rate limiters, and the API worker's service binding to the pages worker. */
export interface WorkerBindings extends RateLimitBindings {
  PAGES?: PagesWorker;
}

/** The window Cloudflare's bindings use (wrangler.toml `period`); also the in-process window. */
const RATE_LIMIT_PERIOD_SECONDS = 60;

/** The bindings where the worker has them, the in-process limiter (per isolate) otherwise. */
export function rateLimits(config: Config, clock: Clock, bindings: RateLimitBindings = {}): RateLimits {
  const inProcess = (limit: number) =>
    new FixedWindowRateLimiter({ limit, periodSeconds: RATE_LIMIT_PERIOD_SECONDS, clock });
  return {
    perKey: bindings.PARTNER_KEY_RATE_LIMITER ?? inProcess(config.RATE_LIMIT_PER_KEY_PER_MINUTE),
    perOrganization:
      bindings.ORGANIZATION_RATE_LIMITER ?? inProcess(config.RATE_LIMIT_PER_ORGANIZATION_PER_MINUTE),
    perIp: bindings.CLIENT_IP_RATE_LIMITER ?? inProcess(config.RATE_LIMIT_PER_IP_PER_MINUTE),
    periodSeconds: RATE_LIMIT_PERIOD_SECONDS,
  };
}

/** The deployed worker (and `wrangler dev`): Neon, QStash and the configured chains. */
export function workerDeps(
  config: Config,
  bindings: WorkerBindings = {},
): { ok: true; deps: AppDeps } | { ok: false; problems: ConfigProblem[] } {
  const missing = WORKER_REQUIRES.filter((name) => !config[name]);
  if (missing.length > 0) {
    return {
      ok: false,
      problems: missing.map((variable) => ({ variable, problem: "is required by the worker" })),
    };
  }
  const chains = chainRegistry(config);
  const required = (name: (typeof WORKER_REQUIRES)[number]) => config[name] as string;
  return {
    ok: true,
    deps: {
      config,
      database: neonDatabase(required("DATABASE_URL"), config.NEON_LOCAL_RELAY),
      clock: systemClock,
      jobs: qstashJobs({
        baseUrl: config.QSTASH_URL,
        token: required("QSTASH_TOKEN"),
        publicUrl: config.PUBLIC_URL,
      }),
      jobVerifier: qstashVerifier({
        current: required("QSTASH_CURRENT_SIGNING_KEY"),
        next: required("QSTASH_NEXT_SIGNING_KEY"),
      }),
      chains,
      clientAddress: cloudflareClientAddress,
      logger: createLogger(config.LOG_LEVEL),
      jobCatalog,
      sweepHooks,
      rateLimits: rateLimits(config, systemClock, bindings),
      providers: providersFor(config, chains, systemClock),
      settlement: settlementSetup(config),
      ...(bindings.PAGES ? { pages: bindings.PAGES } : {}),
    },
  };
}
