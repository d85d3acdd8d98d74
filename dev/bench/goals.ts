/**
 * Issue 39's goals, one table: the bench records a figure against each as its parts run and prints
 * whether each was met in this run, so no reader compares figures to goals by hand. A goal whose part
 * did not run (BENCH_PARTS, BENCH_ONLY) says so.
 */
const GOALS = {
  quoteCreate: { goal: "quote create ≥ 0.7× the floor", limit: 0.7, met: "atLeast", digits: 2 },
  orderCreate: { goal: "order create ≥ 0.5× the floor", limit: 0.5, met: "atLeast", digits: 2 },
  orderList: { goal: "order list ≥ 0.3× the floor, a page of 100", limit: 0.3, met: "atLeast", digits: 2 },
  aggregatorCalls: {
    goal: "aggregator calls for 1,000 quotes in a minute ≤ one per price-book refresh",
    limit: undefined,
    met: "atMost",
    digits: 0,
  },
  settlementTicks: {
    goal: "200 orders DELIVERED ≤ 2× one order's ticks",
    limit: 2,
    met: "atMost",
    digits: 2,
  },
  workerGzip: { goal: "API worker ≤ 350 KiB gzip", limit: 350, met: "atMost", digits: 0 },
  workerImport: { goal: "API worker import ≤ 100 ms (median)", limit: 100, met: "atMost", digits: 1 },
} as const satisfies Record<
  string,
  { goal: string; limit: number | undefined; met: "atLeast" | "atMost"; digits: number }
>;

export type Goal = keyof typeof GOALS;

const recorded = new Map<Goal, { figure: number; limit: number }>();

/** This run's figure for a goal; `limit` for a goal whose bound the run itself sets (the refreshes allowed). */
export function recordGoal(goal: Goal, figure: number, limit?: number): void {
  const bound = limit ?? GOALS[goal].limit;
  if (bound === undefined) throw new Error(`the goal ${goal} needs its limit from the run`);
  recorded.set(goal, { figure, limit: bound });
}

/** The goals' table, each with this run's figure and whether it met it. */
export function goalRows(): string[] {
  const rows = ["", "Issue 39's goals in this run", "", "| goal | this run | met? |", "| --- | --- | --- |"];
  for (const [name, { goal, met, digits }] of Object.entries(GOALS) as [Goal, (typeof GOALS)[Goal]][]) {
    const run = recorded.get(name);
    if (!run) {
      rows.push(`| ${goal} | not run | |`);
      continue;
    }
    const ok = met === "atLeast" ? run.figure >= run.limit : run.figure <= run.limit;
    const against = GOALS[name].limit === undefined ? ` of ${run.limit}` : "";
    rows.push(`| ${goal} | ${run.figure.toFixed(digits)}${against} | ${ok ? "yes" : "no"} |`);
  }
  return rows;
}
