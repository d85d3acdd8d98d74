// How long QStash waits before retrying a failed delivery.

import { ONE_DAY_MS } from "./durations";
import { compileRetryDelay } from "./retry-delay-expression";

/** QStash's documented backoff: min(86400, e^(2.5 n)) seconds, n = retries so far (1 s, 12 s, 2m28s, …). */
export function defaultRetryDelaySeconds(retried: number): number {
  return Math.min(86_400, Math.exp(2.5 * retried));
}

export interface RetryDelayInput {
  /** How often the message was retried before the attempt that just failed (0 after the first attempt). */
  retried: number;
  /** What the destination asked for with Retry-After (or an X-RateLimit-Reset variant), if anything. */
  retryAfterMs?: number;
  /** The message's Upstash-Retry-Delay expression, in milliseconds. */
  retryDelayExpression?: string;
  /** The backoff used when neither of the above applies. */
  backoffSeconds: (retried: number) => number;
}

/**
 * Milliseconds until the next attempt. The destination's own Retry-After wins, but like QStash only up
 * to one day: beyond that the backoff applies. A per-message expression replaces the backoff.
 */
export function nextRetryDelayMs(input: RetryDelayInput): number {
  if (input.retryAfterMs !== undefined && input.retryAfterMs <= ONE_DAY_MS) return input.retryAfterMs;
  if (input.retryDelayExpression !== undefined) {
    const fromExpression = compileRetryDelay(input.retryDelayExpression)(input.retried);
    if (Number.isFinite(fromExpression)) return clampToDay(fromExpression);
  }
  return clampToDay(input.backoffSeconds(input.retried) * 1000);
}

function clampToDay(ms: number): number {
  return Math.min(ONE_DAY_MS, Math.max(0, ms));
}
