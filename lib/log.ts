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

/** What an error looks like in a log line: its name and message, with its stack: logs are internal, response bodies never carry it. */
export function describeError(error: unknown): LogFields {
  if (error instanceof Error)
    return { errorName: error.name, errorMessage: error.message, stack: error.stack };
  return { errorMessage: String(error) };
}
