import { eq } from "drizzle-orm";
import { settlementOrders } from "../../../schema";
import type { ServiceContext } from "../../kernel/context";
import type { Database } from "../../kernel/db/database";
import type { EventType } from "../../webhooks/event-types";
import { recordEvents } from "../../webhooks/outbox";
import type { OrderStatus } from "../lifecycle";
import { loadOrderView, type OrderWithView } from "../read-order";

const STATUS_EVENTS: Partial<Record<OrderStatus, EventType>> = {
  BURNED: "settlement.order.burned",
  ATTESTED: "settlement.order.attested",
  MINTED: "settlement.order.minted",
  ROUTING: "settlement.order.routing",
  ROUTED: "settlement.order.routed",
  DELIVERED: "settlement.order.delivered",
  RETURNING: "settlement.order.returning",
  RETURNED: "settlement.order.returned",
};

/** The event a move into `status` from `previous` sends, if any: only a new status notifies. */
export function statusEvent(previous: OrderStatus, status: OrderStatus): EventType | undefined {
  return previous === status ? undefined : STATUS_EVENTS[status];
}

/**
 * Writes the order's events to the outbox inside the transaction that changed it, each carrying
 * the order as its read endpoint answers within that transaction: read again, unless the caller
 * built that view from the rows the transaction wrote (`known`).
 */
export async function recordOrderEvents(
  ctx: Pick<ServiceContext, "clock" | "afterWork">,
  tx: Database,
  orderId: string,
  types: ReadonlyArray<EventType | undefined>,
  known?: OrderWithView,
): Promise<void> {
  const wanted = types.filter((type): type is EventType => type !== undefined);
  if (wanted.length === 0) return;
  const found = known ?? (await loadOrderView(tx, eq(settlementOrders.id, orderId)));
  if (!found) return;
  await recordEvents(
    ctx,
    tx,
    wanted.map((type) => ({
      organizationId: found.organizationId,
      integrationId: found.integrationId,
      type,
      subjectId: orderId,
      data: found.view,
    })),
  );
}
