const UNIQUE_VIOLATION = "23505";

/** Whether a database error (or one it wraps, as drizzle does) is Postgres' unique violation. */
export function isUniqueViolation(error: unknown): boolean {
  for (let current: unknown = error; current; current = (current as { cause?: unknown }).cause) {
    if ((current as { code?: unknown }).code === UNIQUE_VIOLATION) return true;
  }
  return false;
}
