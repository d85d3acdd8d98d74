import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { isAbsolute, join } from "node:path";
import { parse } from "smol-toml";
import { localDataDir, PROJECT_ROOT } from "./paths";

/** dev/process-watchdog.mjs: wrangler's group ends when this process does, however it ends. */
const WATCHDOG = join(PROJECT_ROOT, "dev/process-watchdog.mjs");

export interface WranglerDev {
  url: string;
  /** The watchdog holding wrangler: it exits when wrangler does, and ends wrangler when stopped. */
  child: ChildProcess;
  stop(): Promise<void>;
}

export interface WranglerDevOptions {
  port: number;
  vars: Record<string, string>;
  /** Where wrangler's own output goes; inherited by default. */
  output?: "inherit" | "ignore" | ((chunk: string) => void);
  readyTimeoutMs?: number;
  /** workerd's DevTools port; wrangler picks one from 9229 up when absent. */
  inspectorPort?: number;
  /** Where wrangler keeps the worker's local state; .data/wrangler/state by default. */
  persistTo?: string;
  /** Another wrangler.toml than the project's (a scratch worker, run alone). */
  config?: string;
  /** Aborting while wrangler starts stops it and rejects. */
  signal?: AbortSignal;
}

/**
 * Runs the real worker bundle in workerd with `wrangler dev`, offline: no telemetry, no `cf`
 * fetch, config, logs and state under .data/wrangler instead of the home directory. The project's
 * API worker runs with its pages worker beside it, bound as in production.
 */
export async function startWranglerDev(options: WranglerDevOptions): Promise<WranglerDev> {
  const wranglerDir = localDataDir("wrangler");
  const varArgs = Object.entries(options.vars).flatMap(([key, value]) => ["--var", `${key}:${value}`]);
  const pages = options.config ? undefined : await pagesWorkerConfig(options.vars);
  const configs = options.config
    ? [options.config]
    : [join(PROJECT_ROOT, "wrangler.toml"), ...(pages ? [pages.file] : [])];
  const child = spawn(
    process.execPath,
    [
      WATCHDOG,
      process.execPath,
      join(PROJECT_ROOT, "node_modules/wrangler/bin/wrangler.js"),
      "dev",
      ...configs.flatMap((config) => ["--config", config]),
      "--ip",
      "127.0.0.1",
      "--port",
      String(options.port),
      ...(options.inspectorPort ? ["--inspector-port", String(options.inspectorPort)] : []),
      "--persist-to",
      options.persistTo ?? join(wranglerDir, "state"),
      "--show-interactive-dev-session=false",
      "--test-scheduled",
      ...varArgs,
    ],
    {
      cwd: PROJECT_ROOT,
      // Out of this process's group, so a signal to the group (Ctrl-C, a process manager's SIGKILL)
      // leaves the watchdog alive to end wrangler's group when this process is gone.
      detached: true,
      // stdin is the watchdog's lifeline: it closes when this process exits or stop() ends it.
      stdio: ["pipe", "pipe", "pipe"],
      env: {
        ...process.env,
        XDG_CONFIG_HOME: join(wranglerDir, "config"),
        WRANGLER_LOG_PATH: join(wranglerDir, "logs"),
        WRANGLER_SEND_METRICS: "false",
        CLOUDFLARE_CF_FETCH_ENABLED: "false",
        CI: process.env.CI ?? "",
      },
    },
  );
  const output = options.output ?? "inherit";
  for (const stream of [child.stdout, child.stderr]) {
    stream?.setEncoding("utf8");
    stream?.on("data", (chunk: string) => {
      if (output === "inherit") process.stdout.write(chunk);
      else if (typeof output === "function") output(chunk);
    });
  }

  const url = `http://127.0.0.1:${options.port}`;
  const stop = async () => {
    await stopWatched(child);
    await pages?.remove();
  };
  try {
    await waitUntilServing(url, child, options.readyTimeoutMs ?? 60_000, options.signal);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, child, stop };
}

/**
 * wrangler.pages.toml for `wrangler dev` beside the API worker: its paths made absolute, in a scratch
 * directory with a `.dev.vars` of the same variables (wrangler's `--var` reaches the first worker
 * only; each other worker reads the `.dev.vars` beside its config).
 */
async function pagesWorkerConfig(
  vars: Record<string, string>,
): Promise<{ file: string; remove(): Promise<void> }> {
  const config = parse(await readFile(join(PROJECT_ROOT, "wrangler.pages.toml"), "utf8")) as {
    main: string;
    alias?: Record<string, string>;
    env?: unknown;
  };
  const absolute = (path: string) => (isAbsolute(path) ? path : join(PROJECT_ROOT, path));
  const { env: _environments, ...local } = config;
  const resolved = {
    ...local,
    main: absolute(config.main),
    alias: Object.fromEntries(Object.entries(config.alias ?? {}).map(([from, to]) => [from, absolute(to)])),
  };
  const dir = await mkdtemp(join(tmpdir(), "copm-pages-worker-"));
  const file = join(dir, "wrangler.json");
  await writeFile(file, JSON.stringify(resolved, null, 2));
  const lines = Object.entries(vars).map(([key, value]) => `${key}=${dotenvQuoted(key, value)}`);
  await writeFile(join(dir, ".dev.vars"), `${lines.join("\n")}\n`, { mode: 0o600 });
  return { file, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** A value as dotenv reads it back unchanged: in quotes it does not hold (single and backtick quotes escape nothing). */
function dotenvQuoted(key: string, value: string): string {
  const quote = ["'", "`"].find((mark) => !value.includes(mark));
  if (!quote) throw new Error(`${key} holds both ' and \`, which .dev.vars cannot carry unchanged`);
  return `${quote}${value}${quote}`;
}

async function waitUntilServing(
  url: string,
  child: ChildProcess,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    signal?.throwIfAborted();
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`wrangler dev exited with code ${child.exitCode ?? child.signalCode}`);
    }
    try {
      const timeout = AbortSignal.timeout(5_000);
      const response = await fetch(`${url}/health`, {
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
      await response.body?.cancel();
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  throw new Error(`wrangler dev did not answer on ${url} within ${timeoutMs} ms`);
}

/** Closes the watchdog's lifeline and waits for it: it has ended wrangler's whole group by then. */
async function stopWatched(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.stdin?.end();
  await exited;
}
