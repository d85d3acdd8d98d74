import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { localDataDir, PROJECT_ROOT } from "./paths";

export interface WranglerDev {
  url: string;
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
      join(PROJECT_ROOT, "node_modules/wrangler/bin/wrangler.js"),
      "dev",
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
      // Its own process group, so stopping it also stops the workerd process it starts.
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
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
  const stop = () => stopProcessGroup(child);
  try {
    await waitUntilServing(url, child, options.readyTimeoutMs ?? 60_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, child, stop };
}

async function waitUntilServing(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited with code ${child.exitCode}`);
    try {
      const response = await fetch(`${url}/health`, { signal: AbortSignal.timeout(5_000) });
      await response.body?.cancel();
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  throw new Error(`wrangler dev did not answer on ${url} within ${timeoutMs} ms`);
}

export async function stopProcessGroup(child: ChildProcess, graceMs = 5_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-(child.pid as number), name);
    } catch {
      // Already gone.
    }
  };
  signal("SIGTERM");
  const timer = setTimeout(() => signal("SIGKILL"), graceMs);
  await exited;
  clearTimeout(timer);
}
