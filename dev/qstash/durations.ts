// Parsing of the duration strings QStash reads: Upstash-Delay / Upstash-Timeout on publish, and the
// Retry-After family on a destination's response.

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Units of Upstash-Delay and Upstash-Timeout ("10s", "2m", "1h", "1d"). */
const PUBLISH_UNITS: Record<string, number> = { s: SECOND, m: MINUTE, h: HOUR, d: DAY };

/** Units of a Go duration ("6m5s", "1.5s", "300ms"), which QStash accepts in Retry-After. */
const GO_UNITS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  ms: 1,
  s: SECOND,
  m: MINUTE,
  h: HOUR,
};

/** Milliseconds of a sequence of <number><unit> groups ("1h30m"), or undefined when malformed. */
function parseUnitSequence(text: string, units: Record<string, number>): number | undefined {
  // Longest unit names first so "ms" is not read as "m" followed by garbage.
  const names = Object.keys(units).sort((a, b) => b.length - a.length);
  const group = new RegExp(`(\\d+(?:\\.\\d+)?)(${names.join("|")})`, "y");
  let total = 0;
  let position = 0;
  while (position < text.length) {
    group.lastIndex = position;
    const match = group.exec(text);
    if (!match) return undefined;
    const [whole, amount = "", unit = ""] = match;
    total += Number(amount) * (units[unit] ?? Number.NaN);
    position += whole.length;
  }
  return text.length > 0 && Number.isFinite(total) ? total : undefined;
}

/** Upstash-Delay or Upstash-Timeout value in milliseconds, or undefined when malformed. */
export function parsePublishDuration(value: string): number | undefined {
  return parseUnitSequence(value.trim(), PUBLISH_UNITS);
}

/**
 * Milliseconds to wait as asked by a Retry-After style header: whole seconds, an RFC 1123 date, or a
 * Go duration. Undefined when the value is none of these (the caller then uses the backoff).
 */
export function parseRetryAfter(value: string, now: number): number | undefined {
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * SECOND;
  const duration = parseUnitSequence(text, GO_UNITS);
  if (duration !== undefined) return duration;
  // Only text with letters can be a date; a bare number like "1.5" must not become year 1.5.
  const date = /[a-z]/i.test(text) ? Date.parse(text) : Number.NaN;
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export const ONE_DAY_MS = DAY;
