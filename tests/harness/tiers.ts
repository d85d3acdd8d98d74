/**
 * The test tiers, by what a suite starts: `quick` runs the app in-process and nothing else, `postgres`
 * needs a real PostgreSQL server (races), `chains` starts the sandbox chains, `browser` drives
 * Chromium, `worker` runs the bundle under wrangler, and `rehearsal` runs `npm run rehearsal -- --drive`.
 * A suite names its tier in its file name, `<name>.<tier>.test.ts` (`payments.chains.test.ts`); a
 * suite with no tier in its name is `quick`.
 */
export const TIERS = ["quick", "postgres", "chains", "browser", "worker", "rehearsal"] as const;
export type Tier = (typeof TIERS)[number];

const named = (tier: Tier) => `tests/**/*.${tier}.test.ts`;

/** Each tier's suites as vitest globs: its own name, or (quick) every suite no other tier names. */
export function tierGlobs(tier: Tier): { include: string[]; exclude: string[] } {
  if (tier !== "quick") return { include: [named(tier)], exclude: [] };
  return { include: ["tests/**/*.test.ts"], exclude: TIERS.filter((t) => t !== "quick").map(named) };
}
