import { and, asc, eq, gt, gte } from "drizzle-orm";
import { webhookEvents } from "../../schema";
import { pageOf } from "../kernel/db/paging";
import type { PartnerContext } from "../tenancy/caller";
import type { EventType } from "./event-types";

export const EVENTS_PAGE_LIMIT = 500;
export const EVENTS_DEFAULT_LIMIT = 100;

export interface EventQuery {
  type?: EventType;
  since?: Date;
  limit: number;
  /** The id of the last event of the previous page. */
  cursor?: string;
}

export interface EventView {
  id: string;
  type: string;
  createdAt: string;
  data: Record<string, unknown>;
}

/** The event as it is listed and as a delivery's body carries it. */
export function eventView(row: typeof webhookEvents.$inferSelect): EventView {
  return { id: row.id, type: row.type, createdAt: row.createdAt.toISOString(), data: row.data };
}

/**
 * The caller organization's events, oldest first (ids sort by creation), a page at a time: the next
 * page starts after `nextCursor`, which is null on the last page.
 */
export async function listEvents(
  ctx: PartnerContext,
  query: EventQuery,
): Promise<{ events: EventView[]; nextCursor: string | null }> {
  const rows = await ctx.db
    .select()
    .from(webhookEvents)
    .where(
      and(
        eq(webhookEvents.organizationId, ctx.caller.organizationId),
        query.type ? eq(webhookEvents.type, query.type) : undefined,
        query.since ? gte(webhookEvents.createdAt, query.since) : undefined,
        query.cursor ? gt(webhookEvents.id, query.cursor) : undefined,
      ),
    )
    .orderBy(asc(webhookEvents.id))
    .limit(query.limit + 1);
  const { page, nextCursor } = pageOf(rows, query.limit, (row) => row.id);
  return { events: page.map(eventView), nextCursor };
}
