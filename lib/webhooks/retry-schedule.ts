import { retryAfterMs } from "../../sdk/src/retry";

/**
 * The Standard Webhooks retry schedule: the first attempt at once, then after 5 s, 5 min, 30 min,
 * 2 h, 5 h, 10 h and 10 h; eight attempts in all over about 27.6 hours.
 */
export const RETRY_SCHEDULE_SECONDS = [0, 5, 300, 1_800, 7_200, 18_000, 36_000, 36_000] as const;
export const MAX_ATTEMPTS = RETRY_SCHEDULE_SECONDS.length;

/**
 * Seconds to wait after the `attemptsMade`-th failed attempt, or undefined when none is left. A
 * receiver's Retry-After lengthens the wait (never shortens it), up to the schedule's longest step.
 */
export function secondsUntilRetry(attemptsMade: number, retryAfterSeconds?: number): number | undefined {
  const scheduled = RETRY_SCHEDULE_SECONDS[attemptsMade];
  if (scheduled === undefined) return undefined;
  const longest = Math.max(...RETRY_SCHEDULE_SECONDS);
  return Math.max(scheduled, Math.min(retryAfterSeconds ?? 0, longest));
}

/** A receiver's Retry-After in whole seconds, read as the SDK reads the service's own (retryAfterMs). */
export function retryAfterSeconds(header: string | null, now: Date): number | undefined {
  const ms = retryAfterMs(header, now.getTime());
  return ms === undefined ? undefined : Math.ceil(ms / 1000);
}
