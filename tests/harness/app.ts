import { type LocalBrebProvider, startLocalBrebProvider } from "../../dev/breb-provider";
import { type SandboxChainsOptions, type SandboxNetwork, startSandboxChains } from "../../dev/chains";
import { type OpenedDatabase, openMigratedPglite, openScratchPostgres } from "../../dev/database";
import { type SandboxKyc, startSandboxKyc } from "../../dev/kyc-provider";
import {
  LOCAL_BREB_CALLBACK_SECRET,
  LOCAL_BREB_FEE_WALLET,
  LOCAL_BREB_FEE_WALLET_KEY,
  LOCAL_KYC_CALLBACK_SECRET,
  LOCAL_TWO_FACTOR_SECRETS_KEY,
  LOCAL_WEBHOOK_SECRETS_KEY,
  localSettlementVars,
} from "../../dev/local-defaults";
import { type LocalVendors, type LocalVendorsOptions, startLocalVendors } from "../../dev/local-vendors";
import { type LocalMailbox, startLocalMailbox } from "../../dev/mailbox";
import { fundLocalServiceAccounts, rpcUrlsOf, sandboxNetworkVariable } from "../../dev/stack";
import { buildApp, operationsApp } from "../../lib/composition/app";
import { jobCatalog } from "../../lib/composition/job-catalog";
import { buildPagesApp } from "../../lib/composition/pages";
import { providersFor } from "../../lib/composition/providers";
import { rateLimits } from "../../lib/composition/runtime";
import { sweepHooks } from "../../lib/composition/sweep-hooks";
import { API_VERSION_HEADER, CURRENT_API_VERSION } from "../../lib/http/api-versions";
import { socketClientAddress } from "../../lib/http/client-address";
import type { AppDeps } from "../../lib/http/deps";
import { chainRegistry } from "../../lib/kernel/chain/registry";
import { ManualClock } from "../../lib/kernel/clock";
import { type Config, parseConfig } from "../../lib/kernel/config";
import { privateKeyList } from "../../lib/kernel/config/formats";
import { sharedDatabase } from "../../lib/kernel/db/database";
import type { AnyJobDefinition } from "../../lib/kernel/jobs/definition";
import { InProcessJobs } from "../../lib/kernel/jobs/in-process";
import { qstashVerifier } from "../../lib/kernel/jobs/qstash";
import { createLogger } from "../../lib/kernel/log";
import { settlementSetup } from "../../lib/settlement/setup";
import { type Contract, contractOf, requestLine } from "./contract";

export const TEST_PUBLIC_URL = "http://api.test";
export const TEST_ADMIN_TOKEN = "test-admin-token-0123456789abcdef-0123";
export const TEST_SIGNING_KEYS = {
  current: "sig_test_current_key_0123456789",
  next: "sig_test_next_key_0123456789",
};

export interface Harness {
  app: ReturnType<typeof buildApp>;
  deps: AppDeps;
  clock: ManualClock;
  jobs: InProcessJobs;
  database: OpenedDatabase;
  logLines: Record<string, unknown>[];
  /** Every SQL statement sent since the harness was made; a test may empty it. */
  queries: string[];
  /** Present when the harness started the sandbox chains. */
  network?: SandboxNetwork;
  /** Present with `identity`: the local mailbox codes are emailed to, and the sandbox KYC provider. */
  mailbox?: LocalMailbox;
  kyc?: SandboxKyc;
  /** Present with `payouts`: the local BRE-B provider, settled only when the test calls `settle()`. */
  breb?: LocalBrebProvider;
  /**
   * Present with `chains`: the local Circle and aggregator on the harness clock, which the app
   * reaches through its production adapters (IRIS_URL, LIFI_URL).
   */
  vendors?: LocalVendors;
  /** Waits for the work requests left running after their responses (an email sent after the answer). */
  settled(): Promise<void>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  env?: Record<string, string>;
  jobCatalog?: readonly AnyJobDefinition[];
  /**
   * The Postgres server to make this harness's scratch database on (the concurrency suites need one);
   * otherwise TEST_DATABASE_URL's when set, else an in-memory PGlite.
   */
  databaseUrl?: string;
  /**
   * Start the three sandbox chains (dev/chains) in this process, and the local Circle and aggregator
   * over them (dev/local-vendors.ts), and point the app at them.
   */
  chains?: boolean | SandboxChainsOptions;
  /** Settings of the local Circle and aggregator (their delays, test amounts, rate limits). */
  vendors?: Omit<LocalVendorsOptions, "now">;
  /** Confirmations the service requires on the source chain (the local default is 1). */
  sourceConfirmations?: number;
  /** Confirmations the service requires on the other chains (the local default is 1 each). */
  confirmations?: { intermediate?: number; destination?: number };
  /** Where the harness clock starts (default HARNESS_CLOCK_START); the chains start there too. */
  clockStart?: Date;
  /**
   * Start the local mailbox and the sandbox KYC provider and point the app at them; the provider's
   * signed callbacks go to the app's /callbacks/kyc.
   */
  identity?: boolean;
  /**
   * Start the local BRE-B provider on the sandbox destination chain (needs `chains`) and point the
   * app at it; its signed callbacks go to the app's /callbacks/breb. It moves only on `settle()`.
   */
  payouts?: boolean;
  /**
   * Check every answer `app.request` gives against the OpenAPI document (tests/harness/contract.ts), as
   * a validating proxy would: a breach rejects the request's promise, naming it. On by default; a suite
   * that plants routes or breaks the app on purpose may turn it off.
   */
  contract?: boolean;
}

/** The harness clock's default start: fixed, so tests may assert exact times. */
export const HARNESS_CLOCK_START = new Date("2026-11-22T12:00:00Z");

/**
 * The whole app in-process on its own database, with a clock and a job queue the test drives. The
 * sandbox chains, when started, follow the same clock: their blocks carry its time, not the wall's.
 */
export async function createHarness(options: HarnessOptions = {}): Promise<Harness> {
  const clock = new ManualClock(options.clockStart ?? HARNESS_CLOCK_START);
  const sandbox = options.chains
    ? await startSandboxChains({ ...(options.chains === true ? {} : options.chains), clock })
    : undefined;
  if (sandbox) {
    // The pool the app will be configured with, read as its configuration reads it.
    await fundLocalServiceAccounts(
      sandbox.network,
      privateKeyList.parse(options.env?.SETTLEMENT_ACCOUNT_KEYS ?? ""),
    );
  }
  const vendors = sandbox
    ? await startLocalVendors(sandbox.network, { ...options.vendors, now: () => clock.now() })
    : undefined;
  let app: ReturnType<typeof buildApp> | undefined;
  const mailbox = options.identity ? await startLocalMailbox() : undefined;
  const kyc = options.identity
    ? await startSandboxKyc({
        callbackSecret: LOCAL_KYC_CALLBACK_SECRET,
        now: () => clock.now(),
        deliver: async (body, headers) => {
          if (!app) throw new Error("the app is not built yet");
          const response = await app.request("/callbacks/kyc", { method: "POST", body, headers });
          return { status: response.status };
        },
      })
    : undefined;
  const destination = sandbox?.network.chains.find((chain) => chain.role === "destination");
  const breb =
    options.payouts && sandbox && destination
      ? await startLocalBrebProvider({
          callbackSecret: LOCAL_BREB_CALLBACK_SECRET,
          chain: {
            chainId: destination.chainId,
            rpcUrl: destination.rpcUrl,
            tokens: {
              USDC: destination.contracts.usdc as `0x${string}`,
              COPm: destination.contracts.copm as `0x${string}`,
            },
          },
          operatorKey: sandbox.network.operator.privateKey,
          now: () => clock.now(),
          autoSettle: false,
          deliver: async (body, headers) => {
            if (!app) throw new Error("the app is not built yet");
            const response = await app.request("/callbacks/breb", { method: "POST", body, headers });
            return { status: response.status };
          },
        })
      : undefined;
  const payoutEnv: Record<string, string> = breb
    ? {
        BREB_PROVIDER_URL: breb.url,
        BREB_PROVIDER_API_KEY: breb.apiKey,
        BREB_CALLBACK_SECRET: LOCAL_BREB_CALLBACK_SECRET,
        BREB_FEE_WALLET: LOCAL_BREB_FEE_WALLET,
        BREB_FEE_WALLET_KEY: LOCAL_BREB_FEE_WALLET_KEY,
      }
    : {};
  const identityEnv: Record<string, string> =
    mailbox && kyc
      ? {
          RESEND_API_KEY: mailbox.apiKey,
          RESEND_API_URL: mailbox.url,
          KYC_PROVIDER_URL: kyc.url,
          KYC_PROVIDER_API_KEY: kyc.apiKey,
          KYC_CALLBACK_SECRET: LOCAL_KYC_CALLBACK_SECRET,
        }
      : {};
  const chainEnv = sandbox
    ? {
        SANDBOX_NETWORK: JSON.stringify(
          sandboxNetworkVariable(sandbox.network, {
            ...options.confirmations,
            source: options.sourceConfirmations ?? 1,
          }),
        ),
        SANDBOX_OPERATOR_KEY: sandbox.network.operator.privateKey,
        ...vendors?.workerVars,
        // The same chains under any profile: a live-mode suite (testnet profile) reaches them too.
        ...rpcUrlsOf(sandbox.network),
        ...localSettlementVars(),
      }
    : {};
  const parsed = parseConfig({
    // The tests run in mock mode unless a suite asks for live; live is only the default elsewhere.
    MODE: "mock",
    PUBLIC_URL: TEST_PUBLIC_URL,
    LOG_LEVEL: "debug",
    ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    WEBHOOK_SECRETS_KEY: LOCAL_WEBHOOK_SECRETS_KEY,
    TWO_FACTOR_SECRETS_KEY: LOCAL_TWO_FACTOR_SECRETS_KEY,
    ...chainEnv,
    ...identityEnv,
    ...payoutEnv,
    ...options.env,
  });
  if (!parsed.ok) throw new Error(`test config invalid: ${JSON.stringify(parsed.problems)}`);
  const config: Config = parsed.config;
  const chains = chainRegistry(config);
  const queries: string[] = [];
  const onQuery = (sql: string) => queries.push(sql);
  // A scratch database on the machine's PostgreSQL when there is one (a copy of a migrated template,
  // about 0.1 s), else an in-memory PGlite loaded from a migrated dump (about 1 s).
  const serverUrl = options.databaseUrl ?? process.env.TEST_DATABASE_URL;
  const database = serverUrl
    ? await openScratchPostgres(serverUrl, onQuery)
    : await openMigratedPglite(onQuery);
  // Migrations ran through the same listener; count only what requests send.
  queries.length = 0;
  const jobs = new InProcessJobs({
    clock,
    publicUrl: TEST_PUBLIC_URL,
    signingKey: TEST_SIGNING_KEYS.current,
  });
  const logLines: Record<string, unknown>[] = [];
  const pending = new Set<Promise<unknown>>();
  const deps: AppDeps = {
    config,
    database: sharedDatabase(database.db),
    clock,
    jobs,
    jobVerifier: qstashVerifier(TEST_SIGNING_KEYS),
    chains,
    logger: createLogger("debug", {}, (line) => logLines.push(JSON.parse(line))),
    jobCatalog: options.jobCatalog ?? jobCatalog,
    sweepHooks,
    rateLimits: rateLimits(config, clock),
    providers: providersFor(config, chains, clock),
    settlement: settlementSetup(config),
    clientAddress: socketClientAddress,
    pendingWork: {
      track: (work) => {
        pending.add(work);
        void work.finally(() => pending.delete(work));
      },
    },
  };
  // The pages worker in-process, reached as the API worker reaches its service binding.
  const pagesApp = buildPagesApp(deps);
  const built = buildApp({ ...deps, pages: { fetch: async (request) => pagesApp.fetch(request) } });
  if (options.contract !== false) checkEveryAnswer(built, contractOf(await operationsApp()));
  app = built;
  jobs.deliver = (request) => Promise.resolve(built.fetch(request));
  return {
    app: built,
    deps,
    clock,
    jobs,
    database,
    logLines,
    queries,
    ...(sandbox ? { network: sandbox.network } : {}),
    ...(mailbox ? { mailbox } : {}),
    ...(kyc ? { kyc } : {}),
    ...(breb ? { breb } : {}),
    ...(vendors ? { vendors } : {}),
    settled: async () => {
      while (pending.size > 0) await Promise.all([...pending]);
    },
    close: async () => {
      while (pending.size > 0) await Promise.all([...pending]);
      await breb?.close();
      await database.close();
      await vendors?.close();
      await sandbox?.close();
      await mailbox?.close();
      await kyc?.close();
    },
  };
}

/** Makes `app.request` reject an answer that breaks the document's contract, naming every breach. */
function checkEveryAnswer(app: ReturnType<typeof buildApp>, contract: Contract): void {
  const request = app.request;
  app.request = (async (...args: Parameters<typeof request>) => {
    const response = await request(...args);
    // The document describes the current version; an answer at an older one is that version's shape
    // (docs/versioning.md), which the tests that pin it check themselves.
    const version = response.headers.get(API_VERSION_HEADER);
    if (version !== null && version !== CURRENT_API_VERSION) return response;
    const { method, path } = requestLine(args[0], args[1]);
    const violations = await contract.violations(method, path, response);
    if (violations.length > 0)
      throw new Error(`the answer breaks the OpenAPI contract:\n${violations.join("\n")}`);
    return response;
  }) as typeof request;
}
