import { vi } from "vitest";
import {
  type ListWebhookDeliveriesResponse,
  route as listDeliveries,
} from "../../functions/webhooks/list-deliveries";
import { route as putEndpoint } from "../../functions/webhooks/put-endpoint";
import { route as sendTestEventRoute } from "../../functions/webhooks/send-test-event";
import { type DeliveryHeaders, verifyWebhook as verifyDelivery, type WebhookEvent } from "../../sdk/src";
import type { Harness } from "./app";
import { bodyOf } from "./bodies";
import { partnerRequest } from "./settlement";
import type { Tenant } from "./tenants";

/**
 * Verifies a received webhook with the SDK's verifyWebhook (Standard Webhooks), as a partner's
 * receiver would, at the receiver's `now` (the harness clock: deliveries are signed with its time).
 * Returns the typed event, or throws WebhookVerificationError.
 */
export function verifyWebhook(
  received: { body: string; headers: DeliveryHeaders },
  secret: string | readonly string[],
  now: Date,
): WebhookEvent {
  vi.useFakeTimers({ toFake: ["Date"], now });
  try {
    return verifyDelivery(secret, received.body, received.headers);
  } finally {
    vi.useRealTimers();
  }
}

/** Sets the tenant's endpoint to `url` and answers the signing secret it was given. */
export async function setEndpoint(
  h: Harness,
  tenant: Tenant,
  url: string,
  eventTypes?: string[],
): Promise<string> {
  const response = await partnerRequest(h, tenant, "/api/integrations/webhooks/endpoint", {
    method: "PUT",
    body: { url, ...(eventTypes ? { eventTypes } : {}) },
  });
  return (await bodyOf(response, putEndpoint, 201)).secret;
}

export type DeliveryRead = ListWebhookDeliveriesResponse["deliveries"][number];

export async function deliveriesOf(h: Harness, tenant: Tenant, query = ""): Promise<DeliveryRead[]> {
  const response = await partnerRequest(h, tenant, `/api/integrations/webhooks/deliveries${query}`);
  return (await bodyOf(response, listDeliveries, 200)).deliveries;
}

/** Sends a webhook.test event to the tenant's endpoint; answers the event's id. */
export async function sendTestEvent(h: Harness, tenant: Tenant): Promise<string> {
  const response = await partnerRequest(h, tenant, "/api/integrations/webhooks/endpoint/test", {
    method: "POST",
  });
  return (await bodyOf(response, sendTestEventRoute, 202)).event.id;
}
