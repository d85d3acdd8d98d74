import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The JSON report is what .ci/run reads its closing line from.
    reporters: ["default", "json"],
    outputFile: { json: ".data/vitest-report.json" },
  },
});
