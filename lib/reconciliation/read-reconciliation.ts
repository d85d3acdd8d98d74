import { and, desc, eq, isNull } from "drizzle-orm";
import {
  DISCREPANCY_PROBLEMS,
  RECONCILIATION_RUN_STATUSES,
  RECORD_TYPES,
  reconciliationDiscrepancies,
  reconciliationRuns,
} from "../../schema";
import type { ServiceContext } from "../kernel/context";

export { DISCREPANCY_PROBLEMS, RECONCILIATION_RUN_STATUSES, RECORD_TYPES };

const RECONCILIATION_RUNS_SHOWN = 10;
const DISCREPANCIES_SHOWN = 200;

/** A discrepancy as the operator and the organization's members see it. */
export function discrepancyView(row: typeof reconciliationDiscrepancies.$inferSelect) {
  return {
    id: row.id,
    runId: row.runId,
    organizationId: row.organizationId,
    recordType: row.recordType,
    recordId: row.recordId,
    leg: row.leg,
    chainId: row.chainId,
    txHash: row.txHash,
    problem: row.problem,
    token: row.token,
    recorded: row.recorded,
    foundAt: row.foundAt.toISOString(),
  };
}

/** The latest runs and every open discrepancy, newest first (the operator's view: all organizations). */
export async function reconciliationReport(ctx: ServiceContext) {
  const [runs, open] = await Promise.all([
    ctx.db
      .select()
      .from(reconciliationRuns)
      .orderBy(desc(reconciliationRuns.startedAt))
      .limit(RECONCILIATION_RUNS_SHOWN),
    openDiscrepancies(ctx),
  ]);
  return {
    runs: runs.map((run) => ({
      id: run.id,
      status: run.status,
      coversFrom: run.coversFrom.toISOString(),
      coversTo: run.coversTo.toISOString(),
      recordsChecked: run.recordsChecked,
      discrepanciesFound: run.discrepanciesFound,
      startedAt: run.startedAt.toISOString(),
      finishedAt: run.finishedAt?.toISOString() ?? null,
    })),
    discrepancies: open.map(discrepancyView),
  };
}

/** Open discrepancies, newest first: every organization's, or one's. */
export function openDiscrepancies(ctx: ServiceContext, organizationId?: string) {
  return ctx.db
    .select()
    .from(reconciliationDiscrepancies)
    .where(
      and(
        isNull(reconciliationDiscrepancies.resolvedAt),
        organizationId ? eq(reconciliationDiscrepancies.organizationId, organizationId) : undefined,
      ),
    )
    .orderBy(desc(reconciliationDiscrepancies.foundAt))
    .limit(DISCREPANCIES_SHOWN);
}
