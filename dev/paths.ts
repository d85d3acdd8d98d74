import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const PROJECT_ROOT = fileURLToPath(new URL("..", import.meta.url));

/** Local state lives under .data/ (git-ignored), never in the home directory. */
export function localDataDir(...parts: string[]): string {
  const dir = join(PROJECT_ROOT, ".data", ...parts);
  mkdirSync(dir, { recursive: true });
  return dir;
}
