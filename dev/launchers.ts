import { isRunning, processInfo } from "./process-info";

/** A bound on the walk up, should the group's leader not be an ancestor at all. */
const MAX_LAUNCHERS = 16;

/**
 * The processes that launched this one, nearest first: its parent, theirs, and so on up to the
 * leader of its process group (npm under a shell's job control or a process manager, tsx run by
 * hand). When this process leads its own group, its parent alone.
 */
function launchers(): number[] {
  const self = processInfo(process.pid);
  const chain = [process.ppid];
  if (!self || self.pgid === process.pid) return chain;
  let pid = process.ppid;
  while (pid !== self.pgid && chain.length < MAX_LAUNCHERS) {
    const parent = processInfo(pid)?.ppid;
    if (parent === undefined || parent <= 1) break;
    chain.push(parent);
    pid = parent;
  }
  return chain;
}

/**
 * Calls `gone` once, as soon as any launcher has exited. A launcher killed with SIGKILL tells no
 * one (its children are merely handed to init and keep running), so this looks every `everyMs`.
 */
export function watchLaunchers(gone: () => void, everyMs = 250): () => void {
  const parent = process.ppid;
  const watched = launchers();
  const timer = setInterval(() => {
    // A changed ppid is the parent's death even before anyone reaps it.
    if (process.ppid === parent && watched.every(isRunning)) return;
    clearInterval(timer);
    gone();
  }, everyMs);
  // Watching is no reason to stay alive.
  timer.unref();
  return () => clearInterval(timer);
}
