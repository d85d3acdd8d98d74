import type { Clock } from "../clock";
import {
  type Enqueued,
  type EnqueueOptions,
  type JobRef,
  type Jobs,
  jobUrl,
  qstashBackoffSeconds,
} from "./jobs";
import { signQStashDelivery } from "./signature";

export interface InProcessMessage {
  messageId: string;
  kind: string;
  url: string;
  rawBody: string;
  dueAt: number;
  retried: number;
}

export interface DrainReport {
  delivered: number;
  failedAttempts: number;
  dropped: number;
}

/**
 * The tests' queue: QStash's semantics (delay, deduplication, signed delivery, retries with its
 * backoff) on an injected clock. Nothing runs until a test drains it, so no test sleeps.
 */
export class InProcessJobs implements Jobs {
  readonly #clock: Clock;
  readonly #publicUrl: string;
  readonly #signingKey: string;
  readonly #maxRetries: number;
  #queue: InProcessMessage[] = [];
  readonly #dedupe = new Map<string, string>();
  #sequence = 0;
  /** Where deliveries go: the app's fetch, set once the app exists. */
  deliver: ((request: Request) => Promise<Response>) | undefined;

  constructor(options: { clock: Clock; publicUrl: string; signingKey: string; maxRetries?: number }) {
    this.#clock = options.clock;
    this.#publicUrl = options.publicUrl;
    this.#signingKey = options.signingKey;
    this.#maxRetries = options.maxRetries ?? 3;
  }

  async enqueue<P>(job: JobRef<P>, payload: P, options: EnqueueOptions = {}): Promise<Enqueued> {
    const existing = options.dedupeId ? this.#dedupe.get(options.dedupeId) : undefined;
    if (existing) return { messageId: existing, deduplicated: true };
    this.#sequence += 1;
    const messageId = `msg_inprocess_${this.#sequence}`;
    if (options.dedupeId) this.#dedupe.set(options.dedupeId, messageId);
    this.#queue.push({
      messageId,
      kind: job.kind,
      url: jobUrl(this.#publicUrl, job.kind),
      rawBody: JSON.stringify(job.payload.parse(payload)),
      dueAt: this.#clock.now().getTime() + Math.ceil((options.delaySeconds ?? 0) * 1000),
      retried: 0,
    });
    return { messageId, deduplicated: false };
  }

  async check() {
    return { status: "up" as const, latencyMs: 0 };
  }

  pending(): readonly InProcessMessage[] {
    return this.#queue;
  }

  /** Drops every queued message, as a lost delivery would: for tests of the recovery sweep. */
  loseAll(): number {
    const lost = this.#queue.length;
    this.#queue = [];
    return lost;
  }

  /** Deliver every message due by the clock's now, including jobs those deliveries enqueue. */
  async drain(options: { maxDeliveries?: number } = {}): Promise<DrainReport> {
    const report: DrainReport = { delivered: 0, failedAttempts: 0, dropped: 0 };
    const limit = options.maxDeliveries ?? 1_000;
    for (let attempts = 0; attempts < limit; attempts++) {
      const message = this.#nextDue();
      if (!message) return report;
      const ok = await this.#attempt(message);
      if (ok) {
        report.delivered += 1;
      } else if (message.retried >= this.#maxRetries) {
        report.dropped += 1;
      } else {
        report.failedAttempts += 1;
        message.dueAt = this.#clock.now().getTime() + qstashBackoffSeconds(message.retried) * 1000;
        message.retried += 1;
        this.#queue.push(message);
      }
    }
    throw new Error(`drain did not settle after ${limit} deliveries: a job keeps re-enqueueing itself`);
  }

  #nextDue(): InProcessMessage | undefined {
    const now = this.#clock.now().getTime();
    const index = this.#queue.findIndex((m) => m.dueAt <= now);
    if (index < 0) return undefined;
    const [message] = this.#queue.splice(index, 1);
    return message;
  }

  async #attempt(message: InProcessMessage): Promise<boolean> {
    if (!this.deliver) throw new Error("InProcessJobs.deliver is not wired to an app");
    const signature = await signQStashDelivery({
      signingKey: this.#signingKey,
      url: message.url,
      rawBody: message.rawBody,
      messageId: message.messageId,
    });
    const response = await this.deliver(
      new Request(message.url, {
        method: "POST",
        body: message.rawBody,
        headers: {
          "content-type": "application/json",
          "upstash-signature": signature,
          "upstash-message-id": message.messageId,
          "upstash-retried": String(message.retried),
        },
      }),
    );
    await response.body?.cancel();
    return response.ok;
  }
}
