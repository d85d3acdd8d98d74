import { and, asc, eq, gt, gte, inArray } from "drizzle-orm";
import { DELIVERY_STATUSES, webhookAttempts, webhookDeliveries } from "../../schema";

export { DELIVERY_STATUSES };

import type { ServiceContext } from "../kernel/context";
import { pageOf } from "../kernel/db/paging";
import { type DeliveryView, deliveryView } from "./delivery-view";

export interface DeliveryQuery {
  /** One organization's deliveries (a partner's); absent, every organization's (the operator's). */
  organizationId?: string;
  status?: (typeof DELIVERY_STATUSES)[number];
  eventType?: string;
  since?: Date;
  limit: number;
  /** The id of the last delivery of the previous page. */
  cursor?: string;
}

/** Deliveries oldest first, each with its attempts, a page at a time (`nextCursor` null on the last). */
export async function listDeliveries(
  ctx: ServiceContext,
  query: DeliveryQuery,
): Promise<{ deliveries: DeliveryView[]; nextCursor: string | null }> {
  const rows = await ctx.db
    .select()
    .from(webhookDeliveries)
    .where(
      and(
        query.organizationId ? eq(webhookDeliveries.organizationId, query.organizationId) : undefined,
        query.status ? eq(webhookDeliveries.status, query.status) : undefined,
        query.eventType ? eq(webhookDeliveries.eventType, query.eventType) : undefined,
        query.since ? gte(webhookDeliveries.createdAt, query.since) : undefined,
        query.cursor ? gt(webhookDeliveries.id, query.cursor) : undefined,
      ),
    )
    .orderBy(asc(webhookDeliveries.id))
    .limit(query.limit + 1);
  const { page, nextCursor } = pageOf(rows, query.limit, (row) => row.id);
  const attempts =
    page.length === 0
      ? []
      : await ctx.db
          .select()
          .from(webhookAttempts)
          .where(
            inArray(
              webhookAttempts.deliveryId,
              page.map((row) => row.id),
            ),
          );
  return {
    deliveries: page.map((row) =>
      deliveryView(
        row,
        attempts.filter((attempt) => attempt.deliveryId === row.id),
      ),
    ),
    nextCursor,
  };
}
