import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { PROJECT_ROOT } from "../paths";

const run = promisify(execFile);

export interface BundleFigures {
  rawKiB: number;
  gzipKiB: number;
  /** Milliseconds to import the bundle in a fresh Node process, each run. */
  importMs: number[];
}

/**
 * The API worker as `wrangler deploy` would upload it (its own build, from wrangler.toml: minified,
 * with its aliases), and the pages worker (wrangler.pages.toml), next to a bare Hono app with as many routes, built the same way: their size, gzip
 * size, and how long a fresh process takes to import each, `runs` times.
 */
export async function workerFigures(routes: number, runs: number) {
  const dir = await mkdtemp(join(tmpdir(), "copm-bench-"));
  try {
    const root = PROJECT_ROOT;
    const dryRun = (args: string[]) =>
      run(join(root, "node_modules/.bin/wrangler"), ["deploy", "--dry-run", ...args], {
        cwd: root,
        env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
        maxBuffer: 16 * 1024 * 1024,
      });
    await dryRun(["--outdir", join(dir, "worker")]);
    await dryRun(["--config", "wrangler.pages.toml", "--outdir", join(dir, "pages")]);
    const bare = join(dir, "bare.ts");
    const lines = Array.from(
      { length: routes },
      (_, i) => `app.get("/r${i}/:id", (c) => c.json({ id: c.req.param("id") }));`,
    );
    await writeFile(
      bare,
      `import { Hono } from "hono";\nconst app = new Hono();\n${lines.join("\n")}\nexport default app;\n`,
    );
    await build({
      entryPoints: [bare],
      bundle: true,
      minify: true,
      format: "esm",
      platform: "neutral",
      outfile: join(dir, "bare.js"),
      nodePaths: [join(root, "node_modules")],
      logLevel: "error",
    });
    return {
      worker: await figuresOf(join(dir, "worker", "index.js"), runs),
      pages: await figuresOf(join(dir, "pages", "pages.js"), runs),
      bare: await figuresOf(join(dir, "bare.js"), runs),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function figuresOf(built: string, runs: number): Promise<BundleFigures> {
  const bytes = await readFile(built);
  // As workerd loads it: an ES module, named so, without Node's format detection parsing it first.
  const file = built.replace(/\.js$/, ".mjs");
  await writeFile(file, bytes);
  const importMs: number[] = [];
  const probe = `const t = performance.now(); await import(${JSON.stringify(`file://${file}`)}); process.stdout.write(String(performance.now() - t));`;
  for (let i = 0; i < runs; i++) {
    const { stdout } = await run(process.execPath, ["--input-type=module", "-e", probe]);
    importMs.push(Number(stdout));
  }
  return { rawKiB: bytes.length / 1024, gzipKiB: gzipSync(bytes).length / 1024, importMs };
}
