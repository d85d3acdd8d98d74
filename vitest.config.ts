import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Vitest leaves a core free by default, which is one worker on a two-core machine; the suites
    // wait on chains and databases more than they compute, so two files at a time (measured: 628 s
    // against about 900 s for 101 files on two cores).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // The JSON report is what .ci/run reads its closing line from.
    reporters: ["default", "json"],
    outputFile: { json: ".data/vitest-report.json" },
  },
});
