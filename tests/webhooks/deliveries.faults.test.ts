import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type ReceiverAnswer, startWebhookReceiver, type WebhookReceiver } from "../../dev/webhook-receiver";
import { route as rotateSecret } from "../../functions/webhooks/rotate-secret";
import { newId } from "../../lib/kernel/ids";
import { recoverWebhookDeliveries } from "../../lib/webhooks/sweep-hooks";
import { webhookDeliveries, webhookEndpoints, webhookEvents } from "../../schema";
import { createHarness, type Harness } from "../harness/app";
import { bodyOf } from "../harness/bodies";
import { quietContext } from "../harness/context";
import { partnerRequest } from "../harness/settlement";
import { createTenant } from "../harness/tenants";
import { deliveriesOf, sendTestEvent, setEndpoint, verifyWebhook } from "../harness/webhooks";

let h: Harness;
const receivers: WebhookReceiver[] = [];
beforeAll(async () => {
  h = await createHarness({ env: { WEBHOOK_TIMEOUT_MS: "400" } });
});
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});
afterAll(() => h.close());

async function subscribed(answer?: (index: number) => ReceiverAnswer) {
  const tenant = await createTenant(h);
  const inbox = await startWebhookReceiver(answer ? { answer: (request) => answer(request.index) } : {});
  receivers.push(inbox);
  const secret = await setEndpoint(h, tenant, inbox.url);
  const [endpoint] = await h.database.db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.integrationId, tenant.integrationId));
  if (!endpoint) throw new Error("no endpoint");
  return { tenant, inbox, secret, endpointId: endpoint.id };
}

const deliveryJobs = () => h.jobs.pending().filter((message) => message.kind === "deliver-webhooks");

async function elapse(seconds: number) {
  h.clock.advance(seconds * 1000);
  await h.jobs.drain();
}

describe("webhook delivery under faults", () => {
  it("waits out the lease of a sender that died mid-attempt, then sends: nothing is stranded", async () => {
    const { tenant, inbox, endpointId } = await subscribed();
    // A sender took the endpoint and died: its lease stands for a minute, and nobody schedules after it.
    const leaseUntil = new Date(h.clock.now().getTime() + 60_000);
    await h.database.db
      .update(webhookEndpoints)
      .set({ leaseUntil })
      .where(eq(webhookEndpoints.id, endpointId));
    await sendTestEvent(h, tenant);
    await h.jobs.drain();
    expect(inbox.received).toHaveLength(0);
    expect(deliveryJobs().map((job) => job.dueAt)).toEqual([leaseUntil.getTime()]);
    await elapse(60);
    expect(inbox.received).toHaveLength(1);
    expect((await deliveriesOf(h, tenant))[0]?.status).toBe("delivered");
  });

  it("makes one job for many events arriving while the head waits for its retry", async () => {
    const { tenant, inbox } = await subscribed((index) => (index === 0 ? { status: 500 } : { status: 200 }));
    await sendTestEvent(h, tenant);
    await h.jobs.drain();
    expect(inbox.received).toHaveLength(1);
    for (let i = 0; i < 5; i++) await sendTestEvent(h, tenant);
    expect(deliveryJobs()).toHaveLength(1);
    await elapse(5);
    // The retried head, then the five behind it, in order, by one chain of jobs.
    expect(inbox.received).toHaveLength(7);
    expect(deliveryJobs()).toHaveLength(0);
    expect((await deliveriesOf(h, tenant)).map((d) => d.status)).toEqual(Array(6).fill("delivered"));
  });

  it("sweeps only endpoints whose head is overdue, never one whose head waits its retry with a backlog", async () => {
    const { tenant } = await subscribed(() => ({ status: 500 }));
    await sendTestEvent(h, tenant);
    await h.jobs.drain();
    await elapse(5);
    await elapse(300); // third attempt failed: the head now waits 30 minutes
    await sendTestEvent(h, tenant);
    await sendTestEvent(h, tenant);
    h.clock.advance(10 * 60_000);
    const before = deliveryJobs().length;
    expect(await recoverWebhookDeliveries.run(quietContext(h))).toBe(0);
    expect(deliveryJobs()).toHaveLength(before);
  });

  it("records a secret that no longer opens as a failed attempt, so the delivery runs its schedule instead of blocking", async () => {
    const { tenant, inbox, endpointId } = await subscribed();
    // Sealed under another key: what a changed WEBHOOK_SECRETS_KEY leaves behind.
    await h.database.db
      .update(webhookEndpoints)
      .set({ secretCiphertext: "v1.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" })
      .where(eq(webhookEndpoints.id, endpointId));
    await sendTestEvent(h, tenant);
    await h.jobs.drain();
    expect(inbox.received).toHaveLength(0);
    const [delivery] = await deliveriesOf(h, tenant);
    expect(delivery).toMatchObject({ status: "pending", attempts: 1 });
    expect(delivery?.attemptLog[0]?.error).toBe(
      "the signing secret could not be opened (service configuration)",
    );
    expect(JSON.stringify(h.logLines)).toContain("webhook secret could not be opened");
  });

  it("keeps every earlier secret signing to its own end when a second rotation comes inside the overlap", async () => {
    const { tenant, inbox, secret: original } = await subscribed();
    const rotate = async () => {
      const response = await partnerRequest(h, tenant, "/api/integrations/webhooks/endpoint/rotate-secret", {
        method: "POST",
      });
      return (await bodyOf(response, rotateSecret, 200)).secret;
    };
    const first = await rotate(); // say this answer was lost: the receiver still holds `original`
    h.clock.advance(60 * 60_000);
    const second = await rotate();
    await sendTestEvent(h, tenant);
    await h.jobs.drain();
    const signed = inbox.received.at(-1);
    if (!signed) throw new Error("nothing received");
    expect(signed.headers["webhook-signature"].split(" ")).toHaveLength(3);
    for (const secret of [original, first, second]) {
      expect(verifyWebhook(signed, secret, h.clock.now()).type).toBe("webhook.test");
    }
    // The original's 24 hours run from the first rotation, the first's from the second.
    await elapse(23 * 3600);
    await sendTestEvent(h, tenant);
    await h.jobs.drain();
    const later = inbox.received.at(-1);
    if (!later || later === signed) throw new Error("nothing received later");
    expect(later.headers["webhook-signature"].split(" ")).toHaveLength(2);
    expect(() => verifyWebhook(later, original, h.clock.now())).toThrow("No matching signature found");
    expect(verifyWebhook(later, first, h.clock.now()).type).toBe("webhook.test");
  });

  it("fails a delivery a change queued beside the endpoint's deletion, on the next sweep", async () => {
    const { tenant, endpointId } = await subscribed();
    const eventId = await sendTestEvent(h, tenant);
    await h.jobs.drain();
    const deleted = await partnerRequest(h, tenant, "/api/integrations/webhooks/endpoint", {
      method: "DELETE",
    });
    expect(deleted.status).toBe(200);
    // The racing change read the endpoint before the deletion committed and queued after it.
    const [event] = await h.database.db.select().from(webhookEvents).where(eq(webhookEvents.id, eventId));
    if (!event) throw new Error("no event");
    const now = h.clock.now();
    await h.database.db.insert(webhookDeliveries).values({
      id: newId("dlv", h.clock),
      organizationId: event.organizationId,
      endpointId,
      eventId,
      eventType: event.type,
      trigger: "event",
      status: "pending",
      attempts: 0,
      nextAttemptAt: now,
      createdAt: now,
      updatedAt: now,
    });
    expect(await recoverWebhookDeliveries.run(quietContext(h))).toBe(1);
    const statuses = (await deliveriesOf(h, tenant)).map((d) => [d.status, d.failedReason]);
    expect(statuses.at(-1)).toEqual(["failed", "the endpoint was deleted or disabled"]);
  });
});
