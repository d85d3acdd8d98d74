export type LogLevel = "debug" | "info" | "warn" | "error";
const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  child(fields: LogFields): Logger;
}

/** JSON lines on stdout: one object per event, carrying the request id when there is one. */
export function createLogger(
  level: LogLevel = "info",
  base: LogFields = {},
  write: (line: string) => void = (line) => console.log(line),
): Logger {
  const emit = (at: LogLevel, msg: string, fields?: LogFields) => {
    if (ORDER[at] < ORDER[level]) return;
    write(JSON.stringify({ time: new Date().toISOString(), level: at, msg, ...base, ...fields }));
  };
  return {
    debug: (msg, fields) => emit("debug", msg, fields),
    info: (msg, fields) => emit("info", msg, fields),
    warn: (msg, fields) => emit("warn", msg, fields),
    error: (msg, fields) => emit("error", msg, fields),
    child: (fields) => createLogger(level, { ...base, ...fields }, write),
  };
}

/**
 * What an error looks like in a log line: its name, message, code (a Postgres SQLSTATE, a Node
 * errno) and stack, then each cause it wraps (a driver's error under the ORM's), so the log says
 * what went wrong underneath. Logs are internal (a response body never carries any of this), and
 * still nothing secret is written: credentials in URLs, API keys, bearer tokens, query parameters
 * and email local parts are redacted.
 */
export function describeError(error: unknown): LogFields {
  if (!(error instanceof Error)) return { errorMessage: redact(String(error)) };
  const fields: LogFields = { errorName: error.name, errorMessage: redact(error.message) };
  const code = codeOf(error);
  if (code !== undefined) fields.errorCode = code;
  if (error.stack) fields.stack = redact(error.stack);
  const causes: LogFields[] = [];
  for (let cause = error.cause, depth = 0; cause !== undefined && depth < 5; depth++) {
    if (!(cause instanceof Error)) {
      causes.push({ message: redact(String(cause)) });
      break;
    }
    const causeCode = codeOf(cause);
    causes.push({
      name: cause.name,
      message: redact(cause.message),
      ...(causeCode === undefined ? {} : { code: causeCode }),
    });
    cause = cause.cause;
  }
  if (causes.length > 0) fields.causes = causes;
  return fields;
}

function codeOf(error: Error): string | undefined {
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" || typeof code === "number" ? String(code) : undefined;
}

const REDACTIONS: Array<[RegExp, string]> = [
  // drizzle's "Failed query: … params: …" carries the request's values
  [/(params: ).*$/gm, "$1[redacted]"],
  [/(\w+:\/\/[^:/\s@]+:)[^@\s]+@/g, "$1[redacted]@"],
  [/copm_(live|test)_[0-9A-Za-z]+/g, "copm_$1_[redacted]"],
  [/(bearer\s+)[^\s"']+/gi, "$1[redacted]"],
  [/[A-Za-z0-9._%+-]+@([A-Za-z0-9.-]+\.[A-Za-z]{2,})/g, "[redacted]@$1"],
];

/** The text with every secret-shaped part replaced. */
function redact(text: string): string {
  return REDACTIONS.reduce((out, [pattern, replacement]) => out.replace(pattern, replacement), text);
}
