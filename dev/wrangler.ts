import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
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
  /** Another wrangler.toml than the project's (a scratch worker). */
  config?: string;
  /** Aborting while wrangler starts stops it and rejects. */
  signal?: AbortSignal;
}

/**
 * Runs the real worker bundle in workerd with `wrangler dev`, offline: no telemetry, no `cf`
 * fetch, config, logs and state under .data/wrangler instead of the home directory.
 */
export async function startWranglerDev(options: WranglerDevOptions): Promise<WranglerDev> {
  const wranglerDir = localDataDir("wrangler");
  const varArgs = Object.entries(options.vars).flatMap(([key, value]) => ["--var", `${key}:${value}`]);
  const child = spawn(
    process.execPath,
    [
      WATCHDOG,
      process.execPath,
      join(PROJECT_ROOT, "node_modules/wrangler/bin/wrangler.js"),
      "dev",
      ...(options.config ? ["--config", options.config] : []),
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
  const stop = () => stopWatched(child);
  try {
    await waitUntilServing(url, child, options.readyTimeoutMs ?? 60_000, options.signal);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, child, stop };
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
