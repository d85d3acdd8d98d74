import type { z } from "zod";

/** What names a kind of job and the shape of its payload; the handler lives in the catalog. */
export interface JobRef<P> {
  kind: string;
  payload: z.ZodType<P>;
}

export interface EnqueueOptions {
  /** Run no earlier than this many seconds from now. */
  delaySeconds?: number;
  /** A second enqueue with the same id (while the first is remembered) schedules nothing. */
  dedupeId?: string;
}

export interface Enqueued {
  messageId: string;
  deduplicated: boolean;
}

export interface ComponentCheck {
  status: "up" | "down";
  latencyMs: number;
  detail?: string;
}

/**
 * The port for "do this later". Production publishes to QStash, which calls the worker's
 * /internal/jobs/{kind} endpoint back, signed; tests use an in-process queue they drain.
 */
export interface Jobs {
  enqueue<P>(job: JobRef<P>, payload: P, options?: EnqueueOptions): Promise<Enqueued>;
  check(): Promise<ComponentCheck>;
}

/** Where QStash (or a stand-in) delivers a job of this kind. */
export function jobUrl(publicUrl: string, kind: string): string {
  return `${publicUrl.replace(/\/+$/, "")}/internal/jobs/${encodeURIComponent(kind)}`;
}

/** QStash's retry backoff: min(1 day, e^(2.5·n)) seconds after the n-th failed attempt. */
export function qstashBackoffSeconds(retried: number): number {
  return Math.min(86_400, Math.exp(2.5 * retried));
}

export async function timed<T>(work: () => Promise<T>): Promise<{ value: T; latencyMs: number }> {
  const started = performance.now();
  const value = await work();
  return { value, latencyMs: Math.round(performance.now() - started) };
}
