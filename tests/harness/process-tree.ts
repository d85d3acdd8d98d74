import { readdirSync, readFileSync } from "node:fs";
import { processInfo } from "../../dev/process-info";

/** Every process below `pid` now (children, theirs, …), read from /proc: Linux only. */
export function descendantsOf(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    const child = Number(entry);
    if (!Number.isInteger(child)) continue;
    const parent = processInfo(child)?.ppid;
    if (parent === undefined) continue;
    children.set(parent, [...(children.get(parent) ?? []), child]);
  }
  const found: number[] = [];
  const walk = (from: number) => {
    for (const child of children.get(from) ?? []) {
      found.push(child);
      walk(child);
    }
  };
  walk(pid);
  return found;
}

/** A process's command line, empty once it is gone. */
export function commandLineOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim();
  } catch {
    return "";
  }
}
