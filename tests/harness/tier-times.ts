import type { Reporter, TestModule } from "vitest/node";

/** Prints, after a run, each tier's suites, tests and summed file time (the tiers run side by side). */
export default class TierTimes implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>) {
    const tiers = new Map<string, { files: number; tests: number; ms: number }>();
    for (const module of modules) {
      const tier = tiers.get(module.project.name) ?? { files: 0, tests: 0, ms: 0 };
      tier.files += 1;
      tier.tests += [...module.children.allTests()].length;
      const diagnostic = module.diagnostic();
      tier.ms += diagnostic.duration + diagnostic.collectDuration + diagnostic.setupDuration;
      tiers.set(module.project.name, tier);
    }
    const rows = [...tiers].map(
      ([name, t]) =>
        `  ${name.padEnd(9)} ${String(t.files).padStart(3)} files ${String(t.tests).padStart(4)} tests ${(t.ms / 1000).toFixed(1).padStart(7)} s`,
    );
    console.log(`tiers (summed file time; files of different tiers run side by side):\n${rows.join("\n")}`);
  }
}
