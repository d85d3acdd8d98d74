import { and, desc, eq, gte, lt, or, type SQL } from "drizzle-orm";
import { base64url } from "jose";
import { auditEvents } from "../../schema";
import type { ServiceContext } from "../kernel/context";
import { ApiError } from "../kernel/errors/api-error";
import type { AuditAction } from "./actions";

export type AuditEventRow = typeof auditEvents.$inferSelect;

export const AUDIT_PAGE_LIMIT = 200;

export interface AuditQuery {
  action?: AuditAction;
  from?: Date;
  to?: Date;
  limit: number;
  cursor?: string;
}

/**
 * The organization's audit log, newest first, a page at a time by keyset (the last entry's time and
 * id in the cursor): a page costs its own rows, however deep. Filtered by action and by time
 * (`from` inclusive, `to` exclusive).
 */
export async function listAuditEvents(
  ctx: Pick<ServiceContext, "db">,
  organizationId: string,
  query: AuditQuery,
): Promise<{ events: AuditEventRow[]; nextCursor: string | null }> {
  const after = query.cursor === undefined ? undefined : cursorPosition(query.cursor);
  const conditions: (SQL | undefined)[] = [
    eq(auditEvents.organizationId, organizationId),
    query.action ? eq(auditEvents.action, query.action) : undefined,
    query.from ? gte(auditEvents.at, query.from) : undefined,
    query.to ? lt(auditEvents.at, query.to) : undefined,
    after
      ? or(lt(auditEvents.at, after.at), and(eq(auditEvents.at, after.at), lt(auditEvents.id, after.id)))
      : undefined,
  ];
  const rows = await ctx.db
    .select()
    .from(auditEvents)
    .where(and(...conditions))
    .orderBy(desc(auditEvents.at), desc(auditEvents.id))
    .limit(query.limit + 1);
  const events = rows.slice(0, query.limit);
  const last = events.at(-1);
  return {
    events,
    nextCursor: rows.length > query.limit && last ? cursorOf(last) : null,
  };
}

function cursorOf(row: AuditEventRow): string {
  return base64url.encode(JSON.stringify({ at: row.at.toISOString(), id: row.id }));
}

/** Where a cursor says the previous page ended; a cursor this service did not make is 400. */
function cursorPosition(cursor: string): { at: Date; id: string } {
  try {
    const parsed = JSON.parse(new TextDecoder().decode(base64url.decode(cursor))) as {
      at?: unknown;
      id?: unknown;
    };
    const at = typeof parsed.at === "string" ? new Date(parsed.at) : undefined;
    if (
      at &&
      !Number.isNaN(at.getTime()) &&
      typeof parsed.id === "string" &&
      /^aud_\w{26}$/.test(parsed.id)
    ) {
      return { at, id: parsed.id };
    }
  } catch {
    // Refused below, as any cursor that is not one of ours.
  }
  throw new ApiError("INVALID_REQUEST", {
    problems: [{ field: "query.cursor", code: "INVALID_REQUEST", problem: "is not a cursor this list gave" }],
  });
}
