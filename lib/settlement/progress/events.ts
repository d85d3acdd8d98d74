import { eq } from "drizzle-orm";
import { settlementOrders } from "../../../schema";
import type { ServiceContext } from "../../kernel/context";
import type { Database } from "../../kernel/db/database";
import type { EventType } from "../../webhooks/event-types";
import { recordEvents } from "../../webhooks/outbox";
import { loadOrderView, type OrderWithView } from "../read-order";

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
