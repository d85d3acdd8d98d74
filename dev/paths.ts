import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { DEFAULT_PORT } from "./stack-ports";

export const PROJECT_ROOT = fileURLToPath(new URL("..", import.meta.url));

/** Local state lives under .data/ (git-ignored), never in the home directory. */
export function localDataDir(...parts: string[]): string {
  return dataDirIn(join(PROJECT_ROOT, ".data"), ...parts);
}

/** `root`/`parts`, made if missing. */
export function dataDirIn(root: string, ...parts: string[]): string {
  const dir = join(root, ...parts);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * Where `npm run dev` on `port` keeps its data: .data/ on the default port, .data/port-<port>/ on
 * another, since two stacks on one database (PGlite is one process's files) would corrupt it.
 */
export function stackDataDir(port: number): string {
  return port === DEFAULT_PORT ? localDataDir() : localDataDir(`port-${port}`);
}
