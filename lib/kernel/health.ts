import { sql } from "drizzle-orm";
import type { ChainRole } from "./chain/descriptor";
import type { ServiceContext } from "./context";
import { type ComponentCheck, timed } from "./jobs/jobs";

interface ChainCheck extends ComponentCheck {
  role: ChainRole;
  chainId?: number;
}

export interface HealthReport {
  status: "ok" | "degraded" | "down";
  mode: "mock" | "live";
  checks: { database: ComponentCheck; jobs: ComponentCheck; chains: ChainCheck[] };
}

const CHECK_TIMEOUT_MS = 3_000;

/** The database decides whether the service is up; a queue or chain outage only degrades it. */
export async function checkHealth(ctx: ServiceContext): Promise<HealthReport> {
  const [database, jobs, chains] = await Promise.all([
    checkDatabase(ctx),
    withTimeout(ctx.jobs.check(), "queue"),
    Promise.all(ctx.chains.chains.map((chain) => checkChain(chain.role, () => chain.client.getChainId()))),
  ]);
  const degraded = jobs.status === "down" || chains.some((chain) => chain.status === "down");
  return {
    status: database.status === "down" ? "down" : degraded ? "degraded" : "ok",
    mode: ctx.config.MODE,
    checks: { database, jobs, chains },
  };
}

async function checkDatabase(ctx: ServiceContext): Promise<ComponentCheck> {
  try {
    const { latencyMs } = await timed(() => withTimeoutOrThrow(ctx.db.execute(sql`select 1`)));
    return { status: "up", latencyMs };
  } catch (error) {
    ctx.log.warn("database health check failed", {
      errorName: error instanceof Error ? error.name : "unknown",
    });
    return { status: "down", latencyMs: CHECK_TIMEOUT_MS, detail: "database unreachable" };
  }
}

async function checkChain(role: ChainRole, getChainId: () => Promise<number>): Promise<ChainCheck> {
  try {
    const { value: chainId, latencyMs } = await timed(() => withTimeoutOrThrow(getChainId()));
    return { role, status: "up", latencyMs, chainId };
  } catch {
    return { role, status: "down", latencyMs: CHECK_TIMEOUT_MS, detail: "RPC unreachable" };
  }
}

async function withTimeout(check: Promise<ComponentCheck>, what: string): Promise<ComponentCheck> {
  try {
    return await withTimeoutOrThrow(check);
  } catch {
    return { status: "down", latencyMs: CHECK_TIMEOUT_MS, detail: `${what} did not answer in time` };
  }
}

function withTimeoutOrThrow<T>(work: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("timed out")), CHECK_TIMEOUT_MS);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
