// The stand-in's state file, so pending messages and deduplication ids survive a restart of
// `npm run dev` the way they survive a QStash deploy.

import { readJsonFile, writeFileAtomically } from "../json-file";
import type { DeduplicationEntry, StoredMessage } from "./types";

export interface PersistedState {
  messages: StoredMessage[];
  deduplication: DeduplicationEntry[];
}

const FORMAT_VERSION = 1;

/** The saved state, or an empty one when the file does not exist yet. A corrupt file is an error:
 * starting empty would silently drop messages that were accepted. */
export async function loadState(file: string): Promise<PersistedState> {
  const saved = await readJsonFile(file);
  if (saved === undefined) return { messages: [], deduplication: [] };
  const parsed = saved as Partial<PersistedState> & { version?: unknown };
  if (
    parsed.version !== FORMAT_VERSION ||
    !Array.isArray(parsed.messages) ||
    !Array.isArray(parsed.deduplication)
  ) {
    throw new Error(`${file} is not a local QStash state file (version ${FORMAT_VERSION})`);
  }
  return { messages: parsed.messages, deduplication: parsed.deduplication };
}

export async function saveState(file: string, state: PersistedState): Promise<void> {
  await writeFileAtomically(file, JSON.stringify({ version: FORMAT_VERSION, ...state }));
}
