import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";

export interface ProcessInfo {
  ppid: number;
  /** Process group id. */
  pgid: number;
  /** A zombie has exited and holds nothing (no port, no file) but keeps its pid until reaped. */
  zombie: boolean;
}

const PROC = existsSync("/proc/self/stat");

/** A process's parent, group and whether it is a zombie; undefined once it is gone. */
export function processInfo(pid: number): ProcessInfo | undefined {
  return PROC ? fromProc(pid) : fromPs(pid);
}

/** Running, not exited: a zombie counts as gone, since some inits (a container's) never reap one. */
export function isRunning(pid: number): boolean {
  if (PROC) {
    const info = fromProc(pid);
    return info !== undefined && !info.zombie;
  }
  // Without /proc (macOS), signal 0 asks cheaply; launchd reaps orphans, so zombies do not linger.
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function fromProc(pid: number): ProcessInfo | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // "pid (comm) state ppid pgrp …": the command name may hold spaces and parentheses.
  const [state, ppid, pgid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return { ppid: Number(ppid), pgid: Number(pgid), zombie: state === "Z" || state === "X" };
}

function fromPs(pid: number): ProcessInfo | undefined {
  let line: string;
  try {
    line = execFileSync("ps", ["-o", "ppid=,pgid=,stat=", "-p", String(pid)], { encoding: "utf8" });
  } catch {
    return undefined;
  }
  const [ppid, pgid, state = ""] = line.trim().split(/\s+/);
  if (ppid === undefined || pgid === undefined) return undefined;
  return { ppid: Number(ppid), pgid: Number(pgid), zombie: state.startsWith("Z") };
}
