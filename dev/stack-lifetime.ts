import { watchLaunchers } from "./launchers";

/** Ctrl-C, a process manager's stop, a closed terminal. */
const ENDING_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

type StackStop = (code: number) => void | Promise<void>;

export interface StackLifetime {
  /** From now on an ending calls `stop` (once, to close everything and exit) instead of exiting at once. */
  stopWith(stop: StackStop): void;
  /** Ends the stack from within (a part of it failed), as a signal would. */
  end(code: number): void;
}

/**
 * How a local stack ends: a signal, or the exit of what launched it (npm, tsx), which a SIGKILL
 * leaves unannounced. Begun first thing, so a launcher killed while the stack starts is noticed
 * too. Until `stopWith`, an ending exits at once, as the default signal action did: nothing is
 * open yet that a watchdog does not end (dev/process-watchdog.mjs).
 */
export function stackLifetime(): StackLifetime {
  let stop: StackStop | undefined;
  let ended = false;
  const end = (code: number) => {
    // A group's SIGTERM can come twice (tsx relays the one its child got too): one stop is enough.
    if (ended) return;
    ended = true;
    if (stop) void stop(code);
    else process.exit(code);
  };
  for (const signal of ENDING_SIGNALS) process.on(signal, () => end(0));
  watchLaunchers(() => end(1));
  return {
    stopWith(given) {
      stop = given;
    },
    end,
  };
}
