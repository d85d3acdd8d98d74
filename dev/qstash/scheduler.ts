// Delivers messages when they are due. One timer is armed for the earliest due message (no polling);
// each attempt's outcome completes the message, schedules its retry, or fails it for good.

import { nextRetryDelayMs } from "./backoff";
import { type AttemptOutcome, attemptDelivery } from "./delivery";
import type { MessageStore } from "./message-store";
import type { Logger, StoredMessage } from "./types";

/** Bound on one attempt when the publish set no Upstash-Timeout (QStash's free-plan limit). */
const DEFAULT_DELIVERY_TIMEOUT_MS = 15 * 60 * 1000;

// Node timers cannot wait longer than ~24.8 days; far-off messages are reached in steps of a day.
const LONGEST_TIMER_MS = 24 * 60 * 60 * 1000;

export interface SchedulerOptions {
  store: MessageStore;
  signingKey: string;
  backoffSeconds: (retried: number) => number;
  log: Logger;
}

export class DeliveryScheduler {
  private timer: NodeJS.Timeout | undefined;
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly cancel = new AbortController();
  private closed = false;

  constructor(private readonly options: SchedulerOptions) {}

  /** Re-arms the timer; call whenever a message was added. */
  wake(): void {
    if (this.closed) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    const waiting = this.options.store.all().filter((message) => !this.inFlight.has(message.messageId));
    if (waiting.length === 0) return;
    const earliest = Math.min(...waiting.map((message) => message.notBefore));
    const wait = Math.min(LONGEST_TIMER_MS, Math.max(0, earliest - Date.now()));
    this.timer = setTimeout(() => this.dispatchDue(), wait);
  }

  /** Stops the timer and aborts attempts in flight. Their messages stay stored unchanged, so with a
   * data file they are delivered again after a restart (at-least-once, like QStash after a crash). */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.cancel.abort();
    await Promise.allSettled(this.inFlight.values());
  }

  private dispatchDue(): void {
    this.timer = undefined;
    const now = Date.now();
    for (const message of this.options.store.all()) {
      if (message.notBefore > now || this.inFlight.has(message.messageId)) continue;
      const run = this.attempt(message)
        .catch((error: unknown) => this.options.log({ event: "qstash.internal_error", error: String(error) }))
        .finally(() => {
          this.inFlight.delete(message.messageId);
          this.wake();
        });
      this.inFlight.set(message.messageId, run);
    }
    this.wake();
  }

  private async attempt(message: StoredMessage): Promise<void> {
    const outcome = await attemptDelivery(message, {
      signingKey: this.options.signingKey,
      timeoutMs: message.timeoutMs ?? DEFAULT_DELIVERY_TIMEOUT_MS,
      cancel: this.cancel.signal,
    });
    if (this.closed) return;
    this.settle(message, outcome);
    await this.options.store.persist();
  }

  private settle(message: StoredMessage, outcome: AttemptOutcome): void {
    const { store, log } = this.options;
    const about = { messageId: message.messageId, url: message.url, retried: message.retried };
    if (outcome.kind === "delivered") {
      store.remove(message.messageId);
      log({ event: "qstash.delivered", ...about, status: outcome.status });
      return;
    }
    if (outcome.nonRetryable || message.retried >= message.maxRetries) {
      store.remove(message.messageId);
      // QStash would move the message to its dead letter queue; the stand-in only reports it.
      log({
        event: "qstash.failed",
        ...about,
        maxRetries: message.maxRetries,
        status: outcome.status,
        reason: outcome.reason,
        nonRetryable: outcome.nonRetryable,
      });
      return;
    }
    const delayMs = nextRetryDelayMs({
      retried: message.retried,
      retryAfterMs: outcome.retryAfterMs,
      retryDelayExpression: message.retryDelayExpression,
      backoffSeconds: this.options.backoffSeconds,
    });
    store.reschedule(message.messageId, Date.now() + delayMs);
    log({
      event: "qstash.retry_scheduled",
      ...about,
      status: outcome.status,
      reason: outcome.reason,
      delayMs,
    });
  }
}
