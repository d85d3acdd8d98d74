/**
 * `npm run lint:migrations` (the last step of `npm run lint`): squawk, the Postgres migration linter,
 * over every migration after MIGRATIONS_CHECKED_AFTER, with the rules .squawk.toml leaves on (it says
 * why each one it turns off is off). Migrations run before the code that needs them is deployed, so
 * each must work with the code still running (docs/operations.md, "Migrations"). Any warning fails.
 */
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { PROJECT_ROOT } from "./paths";

/**
 * The migrations before this one were applied before the first live deployment, with no earlier code
 * running against them; 0033 and 0037 add a NOT NULL column in one step, which this check refuses.
 */
export const MIGRATIONS_CHECKED_AFTER = 37;

const MIGRATIONS = join(PROJECT_ROOT, "schema/migrations");

/** The squawk of the dev dependency over `files`, with this project's configuration: its exit code and report. */
export function squawk(files: string[], cwd = PROJECT_ROOT): { code: number; report: string } {
  const result = spawnSync(
    join(PROJECT_ROOT, "node_modules/.bin/squawk"),
    ["--config", join(PROJECT_ROOT, ".squawk.toml"), "--reporter", "gcc", ...files],
    { cwd, encoding: "utf8" },
  );
  return { code: result.status ?? 1, report: `${result.stdout}${result.stderr}` };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const checked = readdirSync(MIGRATIONS)
    .filter((name) => /^\d{4}_.*\.sql$/.test(name) && Number(name.slice(0, 4)) > MIGRATIONS_CHECKED_AFTER)
    .sort();
  if (checked.length === 0) {
    console.log(`migrations: none after ${MIGRATIONS_CHECKED_AFTER} to check`);
  } else {
    const { code, report } = squawk(checked.map((name) => join("schema/migrations", name)));
    process.stdout.write(report);
    console.log(
      `migrations: ${checked.length} after ${MIGRATIONS_CHECKED_AFTER} checked, ${code === 0 ? "no problems" : "problems above"}`,
    );
    process.exitCode = code;
  }
}
