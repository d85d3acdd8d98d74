import { and, desc, eq, gte, like, lt, type SQL, sql } from "drizzle-orm";
import { requestLogs } from "../../schema";
import type { ServiceContext } from "../kernel/context";
import type { Database } from "../kernel/db/database";
import { pageOf } from "../kernel/db/paging";
import { preparedOn } from "../kernel/db/prepared";
import { rowParameters } from "../kernel/db/row-parameters";
import { olderThanCursor, timeKeysetCursor } from "../kernel/db/time-keyset";
import type { SweepHook } from "../kernel/sweep";
import { redactedBody } from "./redact";

export type RequestLogRow = typeof requestLogs.$inferSelect;

/** How long request logs are kept. */
const REQUEST_LOG_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;
const REQUEST_BODY_CHARS = 8_192;
const RESPONSE_BODY_CHARS = 16_384;
export const REQUEST_LOGS_PAGE_LIMIT = 100;

/** One partner request as it was asked and answered, before redaction. */
export interface RequestLogInput {
  requestId: string;
  organizationId: string;
  integrationId: string;
  keyId: string;
  method: string;
  path: string;
  status: number;
  latencyMs: number;
  idempotencyKey: string | null;
  ip: string | null;
  requestBody: string | undefined;
  responseBody: string | undefined;
  at: Date;
}

/**
 * Writes a request's log, redacted. Called after the response with the request's own session; a
 * failure is logged and dropped, never the request's (docs/tenancy.md, "Request logs").
 */
export async function writeRequestLog(
  ctx: Pick<ServiceContext, "log">,
  db: Database,
  input: RequestLogInput,
): Promise<void> {
  try {
    const response = redactedBody(input.responseBody, RESPONSE_BODY_CHARS);
    await insertRequestLog(db).execute(
      requestLogRow.values({
        id: input.requestId,
        organizationId: input.organizationId,
        integrationId: input.integrationId,
        keyId: input.keyId,
        method: input.method,
        path: input.path,
        status: input.status,
        errorCode: response.errorCode,
        latencyMs: input.latencyMs,
        idempotencyKey: input.idempotencyKey,
        ip: input.ip,
        requestBody: redactedBody(input.requestBody, REQUEST_BODY_CHARS).text,
        responseBody: response.text,
        at: input.at,
      }),
    );
  } catch (error) {
    ctx.log.warn("request log not written", { requestId: input.requestId, error: String(error) });
  }
}

const requestLogRow = rowParameters(requestLogs);

/**
 * The log's insert, built once per database client: every partner request writes one, and drizzle's
 * building of its fourteen columns was ~0.4 ms of CPU each time. `on conflict do nothing`: a request
 * id is logged once.
 */
function insertRequestLog(db: Database) {
  return preparedOn(db, "request_logs_insert", (on) =>
    on
      .insert(requestLogs)
      .select(sql`select ${requestLogRow.select}`)
      .onConflictDoNothing()
      .prepare("request_logs_insert"),
  );
}

export interface RequestLogQuery {
  requestId?: string;
  status?: number;
  /** A path prefix, as the request was made ("/api/integrations/settlements"). */
  path?: string;
  from?: Date;
  to?: Date;
  limit: number;
  cursor?: string;
}

/** The organization's request logs, newest first, a page at a time by keyset. */
export async function listRequestLogs(
  ctx: Pick<ServiceContext, "db" | "clock">,
  organizationId: string,
  query: RequestLogQuery,
): Promise<{ logs: RequestLogRow[]; nextCursor: string | null }> {
  // Older than the retention are gone, also before the sweep has run.
  const kept = new Date(ctx.clock.now().getTime() - REQUEST_LOG_RETENTION_MS);
  const from = query.from && query.from > kept ? query.from : kept;
  const conditions: (SQL | undefined)[] = [
    eq(requestLogs.organizationId, organizationId),
    query.requestId ? eq(requestLogs.id, query.requestId) : undefined,
    query.status ? eq(requestLogs.status, query.status) : undefined,
    query.path ? like(requestLogs.path, `${query.path.replace(/[\\%_]/g, "\\$&")}%`) : undefined,
    gte(requestLogs.at, from),
    query.to ? lt(requestLogs.at, query.to) : undefined,
    query.cursor === undefined ? undefined : olderThanCursor(requestLogs, query.cursor),
  ];
  const rows = await ctx.db
    .select()
    .from(requestLogs)
    .where(and(...conditions))
    .orderBy(desc(requestLogs.at), desc(requestLogs.id))
    .limit(query.limit + 1);
  const { page, nextCursor } = pageOf(rows, query.limit, timeKeysetCursor);
  return { logs: page, nextCursor };
}

/** Keeps 7 days of request logs. */
export const pruneRequestLogs: SweepHook = {
  name: "prune-request-logs",
  async run(ctx) {
    const cutoff = new Date(ctx.clock.now().getTime() - REQUEST_LOG_RETENTION_MS);
    const deleted = await ctx.db
      .delete(requestLogs)
      .where(lt(requestLogs.at, cutoff))
      .returning({ id: requestLogs.id });
    return deleted.length;
  },
};
