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

/** A Retry-After header in seconds: delta-seconds or an HTTP date; anything else is ignored. */
export function retryAfterSeconds(header: string | null, now: Date): number | undefined {
  if (!header) return undefined;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, Math.ceil((at - now.getTime()) / 1000));
}
