import { and, desc, eq, gte, lt, type SQL } from "drizzle-orm";
import { auditEvents } from "../../schema";
import type { ServiceContext } from "../kernel/context";
import { pageOf } from "../kernel/db/paging";
import { olderThanCursor, timeKeysetCursor } from "../kernel/db/time-keyset";
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
  const conditions: (SQL | undefined)[] = [
    eq(auditEvents.organizationId, organizationId),
    query.action ? eq(auditEvents.action, query.action) : undefined,
    query.from ? gte(auditEvents.at, query.from) : undefined,
    query.to ? lt(auditEvents.at, query.to) : undefined,
    query.cursor === undefined ? undefined : olderThanCursor(auditEvents, query.cursor),
  ];
  const rows = await ctx.db
    .select()
    .from(auditEvents)
    .where(and(...conditions))
    .orderBy(desc(auditEvents.at), desc(auditEvents.id))
    .limit(query.limit + 1);
  const { page, nextCursor } = pageOf(rows, query.limit, timeKeysetCursor);
  return { events: page, nextCursor };
}
