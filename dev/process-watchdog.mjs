// `node dev/process-watchdog.mjs <command> [args…]`: runs the command in a process group of its own
// and ends that whole group (the command and whatever it started: wrangler's workerd) when this
// process's stdin closes. The parent holds the other end of that pipe, and the kernel closes it
// however the parent ends, SIGKILL included, which no handler in the parent could see. Plain
// JavaScript, so it starts in milliseconds without a TypeScript loader.
//
// The parent must start this detached (a group of its own): a signal to the parent's group, such as
// a process manager's SIGKILL, then cannot take the watchdog down before it has done its work.
import { spawn } from "node:child_process";
import { constants } from "node:os";

/** How long the group has to end after SIGTERM before SIGKILL. */
const GRACE_MS = Number(process.env.WATCHDOG_GRACE_MS ?? 5_000);

const [command, ...args] = process.argv.slice(2);
if (!command) {
  process.stderr.write("usage: node dev/process-watchdog.mjs <command> [args…]\n");
  process.exit(2);
}

// stdout and stderr are the parent's pipes: the command writes to them directly.
const child = spawn(command, args, { detached: true, stdio: ["ignore", "inherit", "inherit"] });
let ending = false;

/** Signals every process left in the command's group; none left is fine. */
function signalGroup(signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is empty.
  }
}

function end() {
  if (ending) return;
  ending = true;
  signalGroup("SIGTERM");
  setTimeout(() => signalGroup("SIGKILL"), GRACE_MS).unref();
}

child.on("error", (error) => {
  process.stderr.write(`process-watchdog: cannot start ${command}: ${error.message}\n`);
  process.exit(127);
});
child.on("exit", (code, signal) => {
  // The command may leave children behind it (workerd outlives a crashed wrangler): they go too.
  signalGroup("SIGKILL");
  process.exit(code ?? 128 + (constants.signals[signal] ?? 0));
});

process.stdin.on("end", end);
process.stdin.on("error", end);
process.stdin.resume();
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, end);
