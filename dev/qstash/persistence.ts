// Reads and atomically writes the stand-in's state file, so pending messages and deduplication ids
// survive a restart of `npm run dev` the way they survive a QStash deploy.

import { randomBytes } from "node:crypto";
import { mkdir, open, readFile, rename, rm } from "node:fs/promises";
import { dirname } from "node:path";
import type { DeduplicationEntry, StoredMessage } from "./types";

export interface PersistedState {
  messages: StoredMessage[];
  deduplication: DeduplicationEntry[];
}

const FORMAT_VERSION = 1;

/** The saved state, or an empty one when the file does not exist yet. A corrupt file is an error:
 * starting empty would silently drop messages that were accepted. */
export async function loadState(file: string): Promise<PersistedState> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { messages: [], deduplication: [] };
    throw error;
  }
  const parsed = JSON.parse(text) as Partial<PersistedState> & { version?: unknown };
  if (
    parsed.version !== FORMAT_VERSION ||
    !Array.isArray(parsed.messages) ||
    !Array.isArray(parsed.deduplication)
  ) {
    throw new Error(`${file} is not a local QStash state file (version ${FORMAT_VERSION})`);
  }
  return { messages: parsed.messages, deduplication: parsed.deduplication };
}

/** Writes to a temporary file in the same directory, flushes it, then renames it over the old one, so
 * a crash leaves either the previous or the new state, never half a file. */
export async function saveState(file: string, state: PersistedState): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  const handle = await open(temporary, "w");
  try {
    await handle.writeFile(JSON.stringify({ version: FORMAT_VERSION, ...state }));
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
