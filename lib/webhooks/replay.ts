import { and, eq } from "drizzle-orm";
import { webhookDeliveries, webhookEvents } from "../../schema";
import { ApiError } from "../kernel/errors/api-error";
import type { PartnerContext } from "../tenancy/caller";
import { scheduleEndpoint } from "./deliver";
import { pendingDelivery } from "./delivery-queue";
import { type DeliveryView, deliveryView } from "./delivery-view";
import { enabledEndpoint } from "./endpoints";

/**
 * Sends one of the organization's events again, as a new delivery to its integration's endpoint, with
 * the same `webhook-id`, so a receiver that already handled it recognises it. It queues behind the
 * endpoint's pending deliveries.
 */
export async function replayEvent(ctx: PartnerContext, eventId: string): Promise<DeliveryView> {
  const delivery = await ctx.db.transaction(async (tx) => {
    const [event] = await tx
      .select()
      .from(webhookEvents)
      .where(and(eq(webhookEvents.id, eventId), eq(webhookEvents.organizationId, ctx.caller.organizationId)));
    if (!event) throw new ApiError("EVENT_NOT_FOUND");
    const endpoint = await enabledEndpoint(tx, {
      organizationId: event.organizationId,
      integrationId: event.integrationId,
    });
    const [queued] = await tx
      .insert(webhookDeliveries)
      .values(pendingDelivery(ctx.clock, endpoint, event, "replay"))
      .returning();
    if (!queued) throw new Error("the replay was not queued");
    return queued;
  });
  await scheduleEndpoint(ctx, delivery.endpointId);
  return deliveryView(delivery, []);
}
