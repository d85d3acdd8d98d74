import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type ReceiverAnswer, startWebhookReceiver, type WebhookReceiver } from "../../dev/webhook-receiver";
import { route as adminListDeliveries } from "../../functions/webhooks/admin-list-deliveries";
import { route as adminListFailingEndpoints } from "../../functions/webhooks/admin-list-failing-endpoints";
import { route as getEndpoint } from "../../functions/webhooks/get-endpoint";
import { route as replayEvent } from "../../functions/webhooks/replay-event";
import { route as rotateSecret } from "../../functions/webhooks/rotate-secret";
import { runSweep } from "../../lib/kernel/sweep";
import { RETRY_SCHEDULE_SECONDS } from "../../lib/webhooks/retry-schedule";
import { recoverWebhookDeliveries } from "../../lib/webhooks/sweep-hooks";
import { webhookEndpoints } from "../../schema";
import { createHarness, type Harness } from "../harness/app";
import { bodyOf, errorOf } from "../harness/bodies";
import { quietContext } from "../harness/context";
import { partnerRequest } from "../harness/settlement";
import { adminRequest, createTenant, type Tenant } from "../harness/tenants";
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

async function receiver(answer?: (index: number) => ReceiverAnswer) {
  const started = await startWebhookReceiver(answer ? { answer: (request) => answer(request.index) } : {});
  receivers.push(started);
  return started;
}

/** A tenant whose endpoint is a fresh loopback receiver; answers both and the signing secret. */
async function subscribed(answer?: (index: number) => ReceiverAnswer) {
  const tenant = await createTenant(h);
  const inbox = await receiver(answer);
  const secret = await setEndpoint(h, tenant, inbox.url);
  return { tenant, inbox, secret };
}

/** Runs every job due now, then moves the clock on by `seconds` and runs what fell due. */
async function elapse(seconds: number) {
  h.clock.advance(seconds * 1000);
  await h.jobs.drain();
}

describe("webhook delivery", () => {
  it("sends a test event signed with the endpoint's secret: standardwebhooks verifies it and webhook-id is the event id", async () => {
    const { tenant, inbox, secret } = await subscribed();
    const eventId = await sendTestEvent(h, tenant);
    await h.jobs.drain();

    expect(inbox.received).toHaveLength(1);
    const [request] = inbox.received;
    if (!request) throw new Error("nothing received");
    const event = verifyWebhook(request, secret, h.clock.now());
    expect(event).toMatchObject({ id: eventId, type: "webhook.test" });
    expect(request.headers["webhook-id"]).toBe(eventId);
    expect(request.headers["webhook-timestamp"]).toBe(String(Math.floor(h.clock.now().getTime() / 1000)));
    expect(request.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);

    const [delivery] = await deliveriesOf(h, tenant);
    expect(delivery).toMatchObject({ eventId, trigger: "test", status: "delivered", attempts: 1 });
    expect(delivery?.attemptLog).toEqual([
      expect.objectContaining({ number: 1, statusCode: 200, responseExcerpt: "ok", error: null }),
    ]);
  });

  it("fails a tampered body and a stale timestamp, as a receiver's verification must", async () => {
    const { tenant, inbox, secret } = await subscribed();
    await sendTestEvent(h, tenant);
    await h.jobs.drain();
    const [request] = inbox.received;
    if (!request) throw new Error("nothing received");
    const tampered = { ...request, body: request.body.replace("webhook.test", "webhook.tset") };
    expect(() => verifyWebhook(tampered, secret, h.clock.now())).toThrow("No matching signature found");
    const sixMinutesLater = new Date(h.clock.now().getTime() + 6 * 60_000);
    expect(() => verifyWebhook(request, secret, sixMinutesLater)).toThrow("Message timestamp too old");
    expect(() =>
      verifyWebhook(request, `whsec_${btoa("another secret of enough length!")}`, h.clock.now()),
    ).toThrow("No matching signature found");
  });

  it("retries a failing receiver on the Standard Webhooks schedule until it recovers: every event arrives, in order, duplicates share webhook-id", async () => {
    const failures = 4;
    const { tenant, inbox, secret } = await subscribed((index) =>
      index < failures ? { status: 500, body: "receiver down" } : { status: 200 },
    );
    const first = await sendTestEvent(h, tenant);
    const second = await sendTestEvent(h, tenant);
    const started = h.clock.now().getTime();
    await h.jobs.drain();
    for (const seconds of RETRY_SCHEDULE_SECONDS.slice(1, failures)) {
      // Nothing is sent before the step is due.
      const before = inbox.received.length;
      await elapse(seconds - 1);
      expect(inbox.received).toHaveLength(before);
      await elapse(1);
      expect(inbox.received).toHaveLength(before + 1);
    }
    await elapse(RETRY_SCHEDULE_SECONDS[failures] ?? 0);

    const ids = inbox.received.map((request) => request.headers["webhook-id"]);
    // The first event is retried until it is delivered; the second waits behind it, then goes.
    expect(ids).toEqual([...Array(failures + 1).fill(first), second]);
    // Each request verifies as it arrived (its own timestamp is when it was signed and sent).
    for (const request of inbox.received) {
      const sentAt = new Date(Number(request.headers["webhook-timestamp"]) * 1000);
      expect(verifyWebhook(request, secret, sentAt).id).toBe(request.headers["webhook-id"]);
    }

    const deliveries = await deliveriesOf(h, tenant);
    expect(deliveries.map((d) => [d.eventId, d.status, d.attempts])).toEqual([
      [first, "delivered", failures + 1],
      [second, "delivered", 1],
    ]);
    const attemptTimes = deliveries[0]?.attemptLog.map((a) => (Date.parse(a.attemptedAt) - started) / 1000);
    let elapsed = 0;
    const expected = RETRY_SCHEDULE_SECONDS.slice(0, failures + 1).map((step) => (elapsed += step));
    expect(attemptTimes).toEqual(expected);
    expect(
      deliveries[0]?.attemptLog.slice(0, failures).map((a) => [a.statusCode, a.responseExcerpt]),
    ).toEqual(Array(failures).fill([500, "receiver down"]));
  });

  it("waits as long as the receiver's Retry-After asks when that is longer than the schedule's step", async () => {
    const { tenant, inbox } = await subscribed((index) =>
      index === 0 ? { status: 503, headers: { "retry-after": "120" } } : { status: 200 },
    );
    await sendTestEvent(h, tenant);
    await h.jobs.drain();
    await elapse(RETRY_SCHEDULE_SECONDS[1] ?? 5);
    expect(inbox.received).toHaveLength(1);
    await elapse(120 - (RETRY_SCHEDULE_SECONDS[1] ?? 5));
    expect(inbox.received).toHaveLength(2);
    expect((await deliveriesOf(h, tenant))[0]?.status).toBe("delivered");
  });

  it("fails a delivery after its eighth attempt and flags the endpoint, which the operator's lists show", async () => {
    const { tenant, inbox } = await subscribed(() => ({ status: 500 }));
    const eventId = await sendTestEvent(h, tenant);
    await h.jobs.drain();
    for (const seconds of RETRY_SCHEDULE_SECONDS.slice(1)) await elapse(seconds);
    await elapse(36_000);
    expect(inbox.received).toHaveLength(RETRY_SCHEDULE_SECONDS.length);

    const [delivery] = await deliveriesOf(h, tenant, "?status=failed");
    expect(delivery).toMatchObject({ eventId, status: "failed", attempts: 8, nextAttemptAt: null });
    expect(delivery?.failedReason).toContain("8 attempts");
    const endpoint = await bodyOf(
      await partnerRequest(h, tenant, "/api/integrations/webhooks/endpoint"),
      getEndpoint,
      200,
    );
    expect(endpoint.endpoint).toMatchObject({ status: "enabled", consecutiveFailures: 8 });
    expect(endpoint.endpoint.flaggedAt).not.toBeNull();

    const failing = await bodyOf(
      await adminRequest(h, "/admin/webhooks/failing-endpoints"),
      adminListFailingEndpoints,
      200,
    );
    expect(failing.endpoints.find((e) => e.integrationId === tenant.integrationId)?.flaggedAt).not.toBeNull();
    const failed = await bodyOf(
      await adminRequest(h, "/admin/webhooks/deliveries?status=failed&limit=500"),
      adminListDeliveries,
      200,
    );
    expect(failed.deliveries.map((d) => d.eventId)).toContain(eventId);

    // A success clears the flag.
    const put = await partnerRequest(h, tenant, "/api/integrations/webhooks/endpoint", {
      method: "PUT",
      body: { url: (await receiver()).url },
    });
    expect(put.status).toBe(200);
    await sendTestEvent(h, tenant);
    await h.jobs.drain();
    const healed = await bodyOf(
      await partnerRequest(h, tenant, "/api/integrations/webhooks/endpoint"),
      getEndpoint,
      200,
    );
    expect(healed.endpoint).toMatchObject({ consecutiveFailures: 0, flaggedAt: null });
  });

  it("disables the endpoint on 410 Gone: what it had pending fails, nothing more is sent until PUT enables it", async () => {
    const { tenant, inbox } = await subscribed((index) => (index === 0 ? { status: 410 } : { status: 200 }));
    await sendTestEvent(h, tenant);
    const queuedBehind = await sendTestEvent(h, tenant);
    await h.jobs.drain();
    await elapse(3600);
    expect(inbox.received).toHaveLength(1);
    const deliveries = await deliveriesOf(h, tenant);
    expect(deliveries.map((d) => d.status)).toEqual(["failed", "failed"]);
    expect(deliveries[1]?.failedReason).toContain("410");

    const read = await partnerRequest(h, tenant, "/api/integrations/webhooks/endpoint");
    expect((await bodyOf(read, getEndpoint, 200)).endpoint.status).toBe("disabled");
    const test = await partnerRequest(h, tenant, "/api/integrations/webhooks/endpoint/test", {
      method: "POST",
    });
    expect(test.status).toBe(409);
    expect((await errorOf(test)).code).toBe("WEBHOOK_ENDPOINT_DISABLED");

    const enable = await partnerRequest(h, tenant, "/api/integrations/webhooks/endpoint", {
      method: "PUT",
      body: { url: inbox.url },
    });
    expect(enable.status).toBe(200);
    const replay = await partnerRequest(
      h,
      tenant,
      `/api/integrations/webhooks/events/${queuedBehind}/replay`,
      {
        method: "POST",
      },
    );
    expect(replay.status).toBe(202);
    await h.jobs.drain();
    expect(inbox.received.map((r) => r.headers["webhook-id"])).toContain(queuedBehind);
  });

  it("replays an event as a new delivery with the same webhook-id", async () => {
    const { tenant, inbox, secret } = await subscribed();
    const eventId = await sendTestEvent(h, tenant);
    await h.jobs.drain();
    const replay = await partnerRequest(h, tenant, `/api/integrations/webhooks/events/${eventId}/replay`, {
      method: "POST",
    });
    const { delivery } = await bodyOf(replay, replayEvent, 202);
    expect(delivery).toMatchObject({ trigger: "replay", status: "pending" });
    await h.jobs.drain();
    expect(inbox.received.map((r) => r.headers["webhook-id"])).toEqual([eventId, eventId]);
    expect(inbox.received.map((r) => verifyWebhook(r, secret, h.clock.now()).id)).toEqual([eventId, eventId]);
    const deliveries = await deliveriesOf(h, tenant);
    expect(deliveries.map((d) => [d.trigger, d.status])).toEqual([
      ["test", "delivered"],
      ["replay", "delivered"],
    ]);
  });

  it("signs with both secrets for 24 hours after a rotation, then with the new one only", async () => {
    const { tenant, inbox, secret: old } = await subscribed();
    const rotated = await partnerRequest(h, tenant, "/api/integrations/webhooks/endpoint/rotate-secret", {
      method: "POST",
    });
    const { secret: fresh, endpoint } = await bodyOf(rotated, rotateSecret, 200);
    expect(fresh).not.toBe(old);
    expect(endpoint.secret).toBe(`whsec_••••••••${fresh.slice(-4)}`);
    expect(Date.parse(endpoint.previousSecretValidUntil ?? "") - h.clock.now().getTime()).toBe(
      24 * 3600 * 1000,
    );

    await sendTestEvent(h, tenant);
    await h.jobs.drain();
    const during = inbox.received.at(-1);
    if (!during) throw new Error("nothing received");
    expect(during.headers["webhook-signature"].split(" ")).toHaveLength(2);
    expect(verifyWebhook(during, old, h.clock.now()).type).toBe("webhook.test");
    expect(verifyWebhook(during, fresh, h.clock.now()).type).toBe("webhook.test");

    await elapse(24 * 3600);
    await sendTestEvent(h, tenant);
    await h.jobs.drain();
    const afterOverlap = inbox.received.at(-1);
    if (!afterOverlap || afterOverlap === during) throw new Error("nothing received after the overlap");
    expect(afterOverlap.headers["webhook-signature"].split(" ")).toHaveLength(1);
    expect(verifyWebhook(afterOverlap, fresh, h.clock.now()).type).toBe("webhook.test");
    expect(() => verifyWebhook(afterOverlap, old, h.clock.now())).toThrow("No matching signature found");
  });

  it("counts a receiver slower than the timeout, and a redirect, as failed attempts", async () => {
    const { tenant } = await subscribed((index) =>
      index === 0
        ? { status: 200, delayMs: 2_000 }
        : index === 1
          ? { status: 302, headers: { location: "http://169.254.169.254/" } }
          : { status: 200 },
    );
    await sendTestEvent(h, tenant);
    await h.jobs.drain();
    await elapse(5);
    await elapse(300);
    const [delivery] = await deliveriesOf(h, tenant);
    expect(delivery?.attemptLog.map((a) => [a.statusCode, a.error])).toEqual([
      [null, "no answer within 400 ms"],
      [302, "redirects are not followed"],
      [200, null],
    ]);
  });

  it("keeps one endpoint's failures from delaying another organization's deliveries", async () => {
    const down = await subscribed(() => ({ status: 500 }));
    const up = await subscribed();
    await sendTestEvent(h, down.tenant);
    await sendTestEvent(h, up.tenant);
    await h.jobs.drain();
    expect(up.inbox.received).toHaveLength(1);
    expect(down.inbox.received).toHaveLength(1);
    expect((await deliveriesOf(h, down.tenant))[0]?.status).toBe("pending");
  });

  it("sends a delivery whose job was lost once the cron sweep finds it overdue", async () => {
    const { tenant, inbox } = await subscribed();
    await sendTestEvent(h, tenant);
    h.jobs.loseAll();
    const ctx = quietContext(h);
    expect(await recoverWebhookDeliveries.run(ctx)).toBe(0); // not overdue yet
    h.clock.advance(61_000);
    const reports = await runSweep(ctx, [recoverWebhookDeliveries]);
    expect(reports).toEqual([{ hook: "recover-webhook-deliveries", acted: 1 }]);
    await h.jobs.drain();
    expect(inbox.received).toHaveLength(1);
    expect((await deliveriesOf(h, tenant))[0]?.status).toBe("delivered");
  });

  it("stores the signing secret only encrypted and never logs it", async () => {
    const { tenant, secret } = await subscribed();
    await sendTestEvent(h, tenant);
    await h.jobs.drain();
    const [row] = await h.database.db
      .select()
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.integrationId, tenant.integrationId));
    const secretBody = secret.slice("whsec_".length);
    expect(row?.secretCiphertext).toMatch(/^v1\./);
    expect(JSON.stringify(row)).not.toContain(secretBody);
    expect(JSON.stringify(h.logLines)).not.toContain(secretBody);
    const read = await (await partnerRequest(h, tenant, "/api/integrations/webhooks/endpoint")).text();
    expect(read).not.toContain(secretBody);
  });
});

describe("event subscriptions", () => {
  it("an endpoint subscribed to some types is still sent the test event it asks for", async () => {
    const tenant: Tenant = await createTenant(h);
    const inbox = await receiver();
    await setEndpoint(h, tenant, inbox.url, ["settlement.order.delivered"]);
    await sendTestEvent(h, tenant);
    await h.jobs.drain();
    expect(inbox.received).toHaveLength(1);
  });
});
