/** The one source of "now". Domain code never calls Date.now() itself, so tests can move time. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that only moves when told to: for tests and the in-process job scheduler. */
export class ManualClock implements Clock {
  #ms: number;

  constructor(start: Date | number = Date.UTC(2026, 0, 1)) {
    this.#ms = typeof start === "number" ? start : start.getTime();
  }

  now(): Date {
    return new Date(this.#ms);
  }

  advance(ms: number): void {
    if (ms < 0) throw new RangeError("a clock does not go backwards");
    this.#ms += ms;
  }

  set(to: Date): void {
    this.advance(to.getTime() - this.#ms);
  }
}

/**
 * Whether Postgres can store the instant: years 1 to 9999. JavaScript also parses year 0, negative
 * and six-digit years, which a timestamptz column refuses, so an instant from a client is checked first.
 */
export function isStorableInstant(at: Date): boolean {
  const year = at.getUTCFullYear();
  return !Number.isNaN(year) && year >= 1 && year <= 9999;
}
