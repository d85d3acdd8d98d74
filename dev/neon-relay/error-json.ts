import pg from "pg";
import { RelayRequestError } from "./request-error";

/**
 * The keys Neon's `/sql` endpoint sends with a failed query; the driver copies each onto its
 * `NeonDbError`. Absent ones are null, as Neon sends them.
 */
const POSTGRES_ERROR_FIELDS = [
  "code",
  "detail",
  "hint",
  "position",
  "internalPosition",
  "internalQuery",
  "severity",
  "where",
  "table",
  "column",
  "schema",
  "dataType",
  "constraint",
  "file",
  "line",
  "routine",
] as const;

type PostgresErrorField = (typeof POSTGRES_ERROR_FIELDS)[number];
type NeonErrorJson = { message: string } & Record<PostgresErrorField, string | null>;

export interface ErrorResponse {
  status: number;
  body: NeonErrorJson;
}

function errorJson(message: string, source?: pg.DatabaseError): NeonErrorJson {
  const body = { message } as NeonErrorJson;
  for (const field of POSTGRES_ERROR_FIELDS) body[field] = source?.[field] ?? null;
  return body;
}

function isSystemError(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).syscall === "string";
}

/**
 * The driver turns only HTTP 400 into a `NeonDbError` with Postgres fields; any other status
 * becomes a generic "Server error (HTTP status …)" carrying the body text.
 */
export function errorResponse(error: unknown): ErrorResponse {
  if (error instanceof RelayRequestError) return { status: error.status, body: errorJson(error.message) };
  if (error instanceof pg.DatabaseError) return { status: 400, body: errorJson(error.message, error) };
  const message = error instanceof Error ? error.message : String(error);
  if (isSystemError(error) || /timeout|terminated/i.test(message)) {
    return { status: 502, body: errorJson(`could not reach upstream Postgres: ${message}`) };
  }
  return { status: 500, body: errorJson(`relay error: ${message}`) };
}
