// The emails the mailbox holds, in the order they arrived, optionally kept in a JSON file so the inbox
// survives a restart of `npm run dev`.

import { readJsonFile, writeFileAtomically } from "../json-file";
import type { StoredEmail } from "./types";

const FORMAT_VERSION = 1;

export class MailboxStore {
  private writing: Promise<void> = Promise.resolve();

  private constructor(
    private readonly emails: StoredEmail[],
    private readonly file: string | undefined,
  ) {}

  static async open(file: string | undefined): Promise<MailboxStore> {
    return new MailboxStore(file === undefined ? [] : await load(file), file);
  }

  /** Keeps the email and resolves once it is on disk (when there is a file), so an accepted email is
   * not lost by a restart right after the 200. */
  async add(email: StoredEmail): Promise<void> {
    this.emails.push(email);
    await this.persist();
  }

  newestFirst(): StoredEmail[] {
    return this.emails.map((email) => ({ ...email, to: [...email.to] })).reverse();
  }

  find(id: string): StoredEmail | undefined {
    return this.emails.find((email) => email.id === id);
  }

  /** Writes one after another: two overlapping writes could otherwise land in the wrong order. */
  persist(): Promise<void> {
    const { file } = this;
    if (file === undefined) return Promise.resolve();
    const snapshot = JSON.stringify({ version: FORMAT_VERSION, emails: this.emails });
    this.writing = this.writing.catch(() => {}).then(() => writeFileAtomically(file, snapshot));
    return this.writing;
  }
}

/** The saved emails, or none when the file does not exist yet. A corrupt file is an error: starting
 * empty would overwrite it and lose the inbox. */
async function load(file: string): Promise<StoredEmail[]> {
  const saved = await readJsonFile(file);
  if (saved === undefined) return [];
  const parsed = saved as { version?: unknown; emails?: unknown };
  if (parsed.version !== FORMAT_VERSION || !Array.isArray(parsed.emails)) {
    throw new Error(`${file} is not a local mailbox file (version ${FORMAT_VERSION})`);
  }
  return parsed.emails as StoredEmail[];
}
