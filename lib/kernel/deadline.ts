import { ProviderFailure } from "./provider-failure";

/**
 * Runs `work` and fails with ProviderFailure("unavailable") if it has not settled within
 * `timeoutMs`. The signal is aborted at the deadline so a fetch stops, but the race does not rely on
 * it: a transport that ignores the signal still cannot hold the caller past the deadline.
 */
export async function withinDeadline<T>(
  provider: string,
  timeoutMs: number,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const failure = new ProviderFailure(
        "unavailable",
        provider,
        `${provider} did not answer within ${timeoutMs} ms`,
      );
      controller.abort(failure);
      reject(failure);
    }, timeoutMs);
  });
  try {
    return await Promise.race([work(controller.signal), deadline]);
  } finally {
    clearTimeout(timer);
  }
}
