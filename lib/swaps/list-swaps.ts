import { and, asc, eq, gt, gte, or } from "drizzle-orm";
import { swapIntents } from "../../schema";
import { isStorableInstant } from "../kernel/clock";
import { pageOf } from "../kernel/db/paging";
import { ApiError } from "../kernel/errors/api-error";
import type { PartnerContext } from "../tenancy/caller";
import { type SwapView, swapView } from "./swap-view";

export const SWAPS_PAGE_LIMIT = 500;
export const SWAPS_DEFAULT_LIMIT = 100;

/**
 * Confirmed swaps of the caller's integration, oldest confirmation first from `since`, a page at a
 * time. The key must belong to `integrationId`: any other id, whether it exists or not, answers the
 * same INTEGRATION_NOT_FOUND. A prepared intent is never listed.
 */
export async function listSwaps(
  ctx: PartnerContext,
  query: { integrationId: string; since?: Date; limit: number; cursor?: string },
): Promise<{ swaps: SwapView[]; nextCursor: string | null }> {
  if (query.integrationId !== ctx.caller.integrationId) throw new ApiError("INTEGRATION_NOT_FOUND");
  const cursor = query.cursor ? decodeCursor(query.cursor) : undefined;
  const rows = await ctx.db
    .select()
    .from(swapIntents)
    .where(
      and(
        eq(swapIntents.integrationId, query.integrationId),
        eq(swapIntents.status, "confirmed"),
        query.since ? gte(swapIntents.confirmedAt, query.since) : undefined,
        cursor
          ? or(
              gt(swapIntents.confirmedAt, cursor.confirmedAt),
              and(eq(swapIntents.confirmedAt, cursor.confirmedAt), gt(swapIntents.id, cursor.id)),
            )
          : undefined,
      ),
    )
    .orderBy(asc(swapIntents.confirmedAt), asc(swapIntents.id))
    .limit(query.limit + 1);
  // Listed rows are confirmed, so each has its confirmation time.
  const { page, nextCursor } = pageOf(rows, query.limit, (row) =>
    encodeCursor(row.confirmedAt ?? new Date(0), row.id),
  );
  return { swaps: page.map(swapView), nextCursor };
}

/** The last row's confirmation time and id, opaque to the caller. */
function encodeCursor(confirmedAt: Date, id: string): string {
  return btoa(`${confirmedAt.toISOString()}|${id}`).replace(/=+$/, "");
}

export function decodeCursor(cursor: string): { confirmedAt: Date; id: string } | undefined {
  try {
    const [at, id] = atob(cursor).split("|");
    const confirmedAt = new Date(at ?? "");
    if (!id || !isStorableInstant(confirmedAt) || !/^si_[0-9A-Z]{26}$/.test(id)) return undefined;
    return { confirmedAt, id };
  } catch {
    return undefined;
  }
}
