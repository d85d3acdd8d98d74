/**
 * The last step of `npm run lint`: the OpenAPI document the app serves (every operation, the admin
 * routes and the providers' callbacks included), written to a scratch file and linted by Redocly's
 * `recommended` ruleset and by Spectral's `spectral:oas` (.spectral.yaml, which says why each rule it
 * turns off is off). Any problem, a warning included, fails.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { openApiDocument } from "../lib/composition/app";
import { PROJECT_ROOT } from "./paths";

const run = promisify(execFile);

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

async function outcomeOf(command: string, args: string[]): Promise<Outcome> {
  return run(command, args, {
    cwd: PROJECT_ROOT,
    env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
    maxBuffer: 64 * 1024 * 1024,
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code?: number | string; stdout?: string; stderr?: string }) => ({
      code: typeof error.code === "number" ? error.code : 1,
      stdout: error.stdout ?? "",
      // A binary that is not there: the spawn's own error (ENOENT), with no output.
      stderr: error.code === "ENOENT" ? "ENOENT" : (error.stderr ?? String(error)),
    }),
  );
}

/** The project's own binary; else one on PATH (a checkout whose node_modules predates the tool). */
function binary(name: string): string {
  const local = join(PROJECT_ROOT, "node_modules", ".bin", name);
  return existsSync(local) ? local : name;
}

async function redocly(file: string): Promise<string[]> {
  const { stdout, stderr } = await outcomeOf(binary("redocly"), [
    "lint",
    file,
    "--format=json",
    "--extends=recommended",
  ]);
  let report: { problems: Array<{ ruleId: string; severity: string; message: string; location: unknown[] }> };
  try {
    report = JSON.parse(stdout);
  } catch {
    return [`redocly did not run: ${stderr.trim() || stdout.trim()}`];
  }
  return report.problems.map(
    (problem) =>
      `redocly ${problem.severity} ${problem.ruleId}: ${problem.message} at ${JSON.stringify(problem.location)}`,
  );
}

async function spectral(file: string): Promise<string[]> {
  const { code, stdout, stderr } = await outcomeOf(binary("spectral"), [
    "lint",
    file,
    "--ruleset",
    join(PROJECT_ROOT, ".spectral.yaml"),
    "--fail-severity=hint",
    "--format=text",
  ]);
  if (code === 0) return [];
  if (/ENOENT/.test(stderr)) {
    return ["spectral is not installed: `npm install` (@stoplight/spectral-cli is a devDependency)"];
  }
  const lines = `${stdout}\n${stderr}`.split("\n").filter((line) => line.trim() !== "");
  return lines.length > 0 ? lines.map((line) => `spectral ${line.trim()}`) : [`spectral exited ${code}`];
}

const dir = await mkdtemp(join(tmpdir(), "openapi-lint-"));
try {
  const file = join(dir, "openapi.json");
  await writeFile(file, JSON.stringify(await openApiDocument("https://api.example.invalid"), null, 2));
  const [byRedocly, bySpectral] = await Promise.all([redocly(file), spectral(file)]);
  const problems = [...byRedocly, ...bySpectral];
  if (problems.length > 0) {
    process.stderr.write(`OpenAPI lint: ${problems.length} problem(s)\n${problems.join("\n")}\n`);
    process.exitCode = 1;
  } else {
    process.stdout.write("OpenAPI lint: Redocly (recommended) and Spectral (spectral:oas): no problems\n");
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
