import type { IncomingHttpHeaders } from "node:http";
import { RelayRequestError } from "./request-error";
import type { UpstreamPostgres } from "./types";

export type IsolationLevel = "ReadUncommitted" | "ReadCommitted" | "RepeatableRead" | "Serializable";
const ISOLATION_LEVELS: ReadonlySet<string> = new Set<IsolationLevel>([
  "ReadUncommitted",
  "ReadCommitted",
  "RepeatableRead",
  "Serializable",
]);

export interface Credentials {
  user: string;
  password: string | undefined;
  database: string;
}

export interface TransactionOptions {
  isolationLevel: IsolationLevel | undefined;
  readOnly: boolean;
  deferrable: boolean;
}

/** What the `Neon-*` headers ask for. Like Neon, anything but the exact string "true" means false. */
export interface SqlRequestHeaders {
  credentials: Credentials;
  defaultArrayMode: boolean;
  rawTextOutput: boolean;
  transaction: TransactionOptions;
}

export interface QueryData {
  query: string;
  params: (string | null)[];
  arrayMode: boolean | undefined;
}

export type SqlPayload = { kind: "single"; query: QueryData } | { kind: "batch"; queries: QueryData[] };

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

function decodeUrlPart(part: string, what: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw new RelayRequestError(400, `Neon-Connection-String has a malformed ${what}`);
  }
}

function credentialsFrom(connectionString: string | undefined, upstream: UpstreamPostgres): Credentials {
  if (connectionString === undefined) {
    throw new RelayRequestError(400, "missing Neon-Connection-String header");
  }
  let url: URL;
  try {
    url = new URL(connectionString);
  } catch {
    throw new RelayRequestError(400, "Neon-Connection-String is not a valid URL");
  }
  if (url.protocol !== "postgres:" && url.protocol !== "postgresql:") {
    throw new RelayRequestError(400, "Neon-Connection-String must be a postgres:// or postgresql:// URL");
  }
  // Host and port are ignored on purpose: the relay only ever reaches its configured upstream.
  const user = decodeUrlPart(url.username, "user") || upstream.user;
  if (!user) throw new RelayRequestError(400, "Neon-Connection-String names no user");
  const password = decodeUrlPart(url.password, "password") || upstream.password;
  const database = decodeUrlPart(url.pathname.replace(/^\//, ""), "database") || upstream.database || user;
  return { user, password, database };
}

export function parseSqlRequestHeaders(
  headers: IncomingHttpHeaders,
  upstream: UpstreamPostgres,
): SqlRequestHeaders {
  const isolationLevel = header(headers, "Neon-Batch-Isolation-Level");
  if (isolationLevel !== undefined && !ISOLATION_LEVELS.has(isolationLevel)) {
    throw new RelayRequestError(400, "invalid isolation level");
  }
  return {
    credentials: credentialsFrom(header(headers, "Neon-Connection-String"), upstream),
    defaultArrayMode: header(headers, "Neon-Array-Mode") === "true",
    rawTextOutput: header(headers, "Neon-Raw-Text-Output") === "true",
    transaction: {
      isolationLevel: isolationLevel as IsolationLevel | undefined,
      readOnly: header(headers, "Neon-Batch-Read-Only") === "true",
      deferrable: header(headers, "Neon-Batch-Deferrable") === "true",
    },
  };
}

/** Parameters reach Postgres as text; the driver already sends strings or null. */
function paramToText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function queryDataFrom(value: unknown, where: string): QueryData {
  if (!isRecord(value) || typeof value.query !== "string") {
    throw new RelayRequestError(400, `invalid request body: ${where} needs a string "query"`);
  }
  const { params = [], arrayMode } = value;
  if (!Array.isArray(params)) {
    throw new RelayRequestError(400, `invalid request body: ${where} "params" must be an array`);
  }
  if (arrayMode !== undefined && typeof arrayMode !== "boolean") {
    throw new RelayRequestError(400, `invalid request body: ${where} "arrayMode" must be a boolean`);
  }
  return { query: value.query, params: params.map(paramToText), arrayMode };
}

export function parseSqlPayload(body: Buffer): SqlPayload {
  let json: unknown;
  try {
    json = JSON.parse(body.toString("utf8"));
  } catch {
    throw new RelayRequestError(400, "invalid request body: not JSON");
  }
  if (isRecord(json) && Array.isArray(json.queries)) {
    return { kind: "batch", queries: json.queries.map((q, i) => queryDataFrom(q, `queries[${i}]`)) };
  }
  return { kind: "single", query: queryDataFrom(json, "the body") };
}
