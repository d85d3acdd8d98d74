import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

/**
 * The test tiers, by what a suite starts: `quick` runs the app in-process and nothing else, `postgres`
 * needs a real PostgreSQL server (races), `chains` starts the sandbox chains, `browser` drives
 * Chromium, `worker` runs the bundle under wrangler, and `rehearsal` runs `npm run rehearsal -- --drive`. A suite's tier is read from the suite itself,
 * so a new suite lands in the right one without a list to keep.
 */
export const TIERS = ["quick", "postgres", "chains", "browser", "worker", "rehearsal"] as const;
export type Tier = (typeof TIERS)[number];

function tierOf(file: string, source: string): Tier {
  if (file.startsWith("tests/browser/")) return "browser";
  if (file.startsWith("tests/workerd/")) return "worker";
  if (file.startsWith("tests/rehearsal/")) return "rehearsal";
  if (/TEST_DATABASE_URL/.test(source)) return "postgres";
  if (
    /chains: (true|\{)|startSandboxChains|startSandboxRpcServers|startScratchChain|startLocalStack/.test(
      source,
    )
  )
    return "chains";
  return "quick";
}

/** Every suite under `tests/`, relative to `root`, with its tier. */
export function suitesByTier(root: string): Record<Tier, string[]> {
  const byTier = Object.fromEntries(TIERS.map((tier) => [tier, [] as string[]])) as Record<Tier, string[]>;
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".test.ts")) {
        const file = relative(root, path).split("\\").join("/");
        byTier[tierOf(file, readFileSync(path, "utf8"))].push(file);
      }
    }
  };
  walk(join(root, "tests"));
  return byTier;
}
