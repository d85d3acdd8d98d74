import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { portIsFree } from "../../dev/listen-port";
import { PROJECT_ROOT } from "../../dev/paths";
import { isRunning } from "../../dev/process-info";
import { commandLineOf, descendantsOf } from "../harness/process-tree";

/**
 * A local stack ends whole, however it is ended: its launcher (tsx, as under `npm run dev`) killed
 * with SIGKILL, its process group killed with SIGKILL, or its group sent SIGTERM. The stack is
 * tests/workerd/fixtures/small-stack.ts: the lifetime, two servers and wrangler with workerd, the
 * part of `npm run dev` that can outlive it. Linux: the process tree is read from /proc.
 */
const TSX_CLI = join(PROJECT_ROOT, "node_modules/tsx/dist/cli.mjs");
const SMALL_STACK = join(PROJECT_ROOT, "tests/workerd/fixtures/small-stack.ts");

/**
 * A free PORT in 20000–29999, so that it and the ports the stack derives from it (PORT − 762 to
 * PORT + 442) lie below Linux's ephemeral range (32768 up): no outgoing connection elsewhere on the
 * machine takes one between its probe and its bind, or holds one the test then finds taken.
 */
async function portBelowEphemeral(): Promise<number> {
  for (let tries = 0; tries < 100; tries++) {
    const port = 20_000 + Math.floor(Math.random() * 10_000);
    if (await portIsFree("127.0.0.1", port)) return port;
  }
  throw new Error("no free port in 20000–29999");
}

interface RunningStack {
  launcher: ChildProcess & { pid: number };
  /** Every process below the launcher once the stack was up. */
  pids: number[];
  /** Their command lines then, so that cleaning up never signals a pid reused by another process. */
  commands: string[];
  ports: number[];
}

describe.skipIf(process.platform !== "linux")("a local stack's ending", () => {
  let scratch: string;
  const started: RunningStack[] = [];

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), "stack-ending-"));
    await writeFile(
      join(scratch, "wrangler.toml"),
      'name = "stack-ending"\nmain = "index.js"\ncompatibility_date = "2026-11-01"\n',
    );
    await writeFile(join(scratch, "index.js"), 'export default { fetch: () => new Response("ok") };\n');
  });

  afterEach(() => {
    // A failed test leaves nothing running either: only its own processes, still what they were.
    for (const stack of started.splice(0)) {
      if (stack.launcher.exitCode === null && stack.launcher.signalCode === null)
        stack.launcher.kill("SIGKILL");
      stack.pids.forEach((pid, index) => {
        if (isRunning(pid) && commandLineOf(pid) === stack.commands[index]) process.kill(pid, "SIGKILL");
      });
    }
  });

  afterAll(async () => {
    await rm(scratch, { recursive: true, force: true });
  });

  async function startSmallStack(): Promise<RunningStack> {
    const port = await portBelowEphemeral();
    // Detached: a group of its own, as a shell's job control gives `npm run dev`.
    const launcher = spawn(process.execPath, [TSX_CLI, SMALL_STACK], {
      cwd: PROJECT_ROOT,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, PORT: String(port), SCRATCH_WORKER: join(scratch, "wrangler.toml") },
    }) as ChildProcess & { pid: number };
    const ports = await new Promise<number[]>((resolve, reject) => {
      let output = "";
      launcher.stderr?.on("data", (chunk) => {
        output += chunk;
      });
      launcher.stdout?.on("data", (chunk) => {
        output += chunk;
        const line = output.split("\n").find((candidate) => candidate.startsWith('{"ports"'));
        if (line) resolve((JSON.parse(line) as { ports: number[] }).ports);
      });
      launcher.once("exit", (code) => reject(new Error(`the small stack exited (${code}): ${output}`)));
    });
    const pids = descendantsOf(launcher.pid);
    const stack = { launcher, pids, commands: pids.map(commandLineOf), ports };
    started.push(stack);
    return stack;
  }

  async function expectEndedWhole(stack: RunningStack): Promise<void> {
    await vi.waitFor(
      async () => {
        const running = stack.pids.filter(isRunning).map((pid) => `${pid} ${commandLineOf(pid)}`);
        expect(running).toEqual([]);
        const taken = [];
        for (const port of stack.ports) if (!(await portIsFree("127.0.0.1", port))) taken.push(port);
        expect(taken).toEqual([]);
      },
      { timeout: 15_000, interval: 100 },
    );
  }

  it("holds workerd below its launcher, with the ports it printed taken", async () => {
    const stack = await startSmallStack();
    const { commands } = stack;
    expect(
      commands.some((command) => command.includes("workerd serve")),
      commands.join("\n"),
    ).toBe(true);
    expect(commands.some((command) => command.includes("process-watchdog.mjs"))).toBe(true);
    for (const port of stack.ports) expect(await portIsFree("127.0.0.1", port)).toBe(false);
    process.kill(stack.launcher.pid, "SIGKILL");
    await expectEndedWhole(stack);
  }, 60_000);

  it("ends every process of the stack when its process group is killed with SIGKILL", async () => {
    const stack = await startSmallStack();
    process.kill(-stack.launcher.pid, "SIGKILL");
    await expectEndedWhole(stack);
  }, 60_000);

  it("ends every process of the stack before its launcher exits on SIGTERM to its group", async () => {
    const stack = await startSmallStack();
    const exited = new Promise((resolve) => stack.launcher.once("exit", resolve));
    process.kill(-stack.launcher.pid, "SIGTERM");
    await exited;
    await expectEndedWhole(stack);
  }, 60_000);
});
