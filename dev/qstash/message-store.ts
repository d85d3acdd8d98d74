// The stand-in's state: messages not yet delivered or failed, and the deduplication ids seen recently.
// With a data file every change is written through (coalesced) before the caller is answered.

import { randomBytes } from "node:crypto";
import { loadState, saveState } from "./persistence";
import type { DeduplicationEntry, MessageDraft, StoredMessage } from "./types";

/** QStash's current docs: "The deduplication window is 10 minutes" (older docs said 90 days). */
const DEDUPLICATION_WINDOW_MS = 10 * 60 * 1000;

export type AddResult =
  | { deduplicated: false; message: StoredMessage }
  | { deduplicated: true; messageId: string; url: string };

export class MessageStore {
  private readonly messages = new Map<string, StoredMessage>();
  private readonly deduplication = new Map<string, DeduplicationEntry>();
  private writing: Promise<void> | undefined;
  private dirty = false;

  private constructor(private readonly dataFile: string | undefined) {}

  static async open(dataFile: string | undefined): Promise<MessageStore> {
    const store = new MessageStore(dataFile);
    if (dataFile) {
      const state = await loadState(dataFile);
      for (const message of state.messages) store.messages.set(message.messageId, message);
      for (const entry of state.deduplication) store.deduplication.set(entry.deduplicationId, entry);
    }
    return store;
  }

  /** Accepts a draft, unless its deduplication id was seen within the window: then the earlier
   * message's id is returned and nothing is scheduled. */
  add(draft: MessageDraft, now: number): AddResult {
    this.forgetExpiredDeduplication(now);
    const seen =
      draft.deduplicationId === undefined ? undefined : this.deduplication.get(draft.deduplicationId);
    if (seen) return { deduplicated: true, messageId: seen.messageId, url: seen.url };

    const message: StoredMessage = { ...draft, messageId: newMessageId(), createdAt: now, retried: 0 };
    this.messages.set(message.messageId, message);
    if (draft.deduplicationId !== undefined) {
      this.deduplication.set(draft.deduplicationId, {
        deduplicationId: draft.deduplicationId,
        messageId: message.messageId,
        url: message.url,
        expiresAt: now + DEDUPLICATION_WINDOW_MS,
      });
    }
    return { deduplicated: false, message };
  }

  all(): StoredMessage[] {
    return [...this.messages.values()];
  }

  get(messageId: string): StoredMessage | undefined {
    return this.messages.get(messageId);
  }

  /** Records a failed attempt: one more retry, next attempt not before `notBefore`. */
  reschedule(messageId: string, notBefore: number): void {
    const message = this.messages.get(messageId);
    if (message) this.messages.set(messageId, { ...message, retried: message.retried + 1, notBefore });
  }

  remove(messageId: string): void {
    this.messages.delete(messageId);
  }

  /** Resolves once the current state is on disk (immediately without a data file). Writes requested
   * while one is running are folded into a single follow-up write. */
  persist(): Promise<void> {
    const file = this.dataFile;
    if (!file) return Promise.resolve();
    this.dirty = true;
    this.writing ??= this.writeUntilClean(file);
    return this.writing;
  }

  private async writeUntilClean(file: string): Promise<void> {
    try {
      while (this.dirty) {
        this.dirty = false;
        await saveState(file, { messages: this.all(), deduplication: [...this.deduplication.values()] });
      }
    } finally {
      // Cleared in the same step as the last dirty check, so a later persist() starts a new write.
      this.writing = undefined;
    }
  }

  private forgetExpiredDeduplication(now: number): void {
    for (const [id, entry] of this.deduplication) {
      if (entry.expiresAt <= now) this.deduplication.delete(id);
    }
  }
}

const ID_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** "msg_" and 27 base62 characters, the shape of QStash's message ids. */
function newMessageId(): string {
  const bytes = randomBytes(27);
  let id = "msg_";
  for (const byte of bytes) id += ID_ALPHABET[byte % ID_ALPHABET.length];
  return id;
}
