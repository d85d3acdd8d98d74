import { availableParallelism } from "node:os";
import { configDefaults, defineConfig } from "vitest/config";
import { TIERS, tierGlobs } from "./tests/harness/tiers.ts";

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Vitest leaves a core free by default, which is one worker on a two-core machine; the suites
    // wait on chains and databases more than they compute, so two files at a time (measured: 628 s
    // against about 900 s for 101 files on two cores).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // One project per tier, named in each suite's file name (tests/harness/tiers.ts): `npm test` runs
    // them all, `npm run test:<tier>` one.
    // The rehearsal runs the bundle under wrangler as the worker tier does: it goes after every other
    // tier (a later group), so two wrangler builds never write the worker's assets at once.
    projects: TIERS.map((name) => ({
      extends: true,
      test: {
        name,
        include: tierGlobs(name).include,
        exclude: [...configDefaults.exclude, ...tierGlobs(name).exclude],
        sequence: { groupOrder: name === "rehearsal" ? 1 : 0 },
      },
    })),
    // The JSON report is what .ci/run reads its closing line from.
    reporters: ["default", "json", "./tests/harness/tier-times.ts"],
    outputFile: { json: ".data/vitest-report.json" },
  },
});
