import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWebhookReceiver, type WebhookReceiver } from "../../dev/webhook-receiver";
import { handleOnce, memoryDeliveryStore, type WebhookEvent, WebhookVerificationError } from "../../sdk/src";
import { createHarness, type Harness } from "../harness/app";
import { createTenant } from "../harness/tenants";
import { sendTestEvent, setEndpoint, verifyWebhook } from "../harness/webhooks";

/** The SDK's webhook verification against a real delivery of the service, and its tampered copies. */
describe("the SDK's webhook verification", () => {
  let h: Harness;
  let inbox: WebhookReceiver;
  let secret: string;
  let eventId: string;
  beforeAll(async () => {
    h = await createHarness();
    const tenant = await createTenant(h);
    inbox = await startWebhookReceiver({});
    secret = await setEndpoint(h, tenant, inbox.url);
    eventId = await sendTestEvent(h, tenant);
    await h.jobs.drain();
  }, 60_000);
  afterAll(async () => {
    await inbox.close();
    await h.close();
  });

  const delivery = () => {
    const [received] = inbox.received;
    if (!received) throw new Error("nothing delivered");
    return received;
  };

  it("accepts a real delivery and answers its event, typed by type", () => {
    const { body, headers } = delivery();
    const event = verifyWebhook({ body, headers }, secret, h.clock.now());
    expect(event.id).toBe(eventId);
    if (event.type !== "webhook.test") throw new Error(`unexpected ${event.type}`);
    // Narrowed on type: data is the test event's.
    expect(event.data.endpointId).toMatch(/^wep_/);
    const fromHeaders = verifyWebhook({ body, headers: new Headers(headers) }, secret, h.clock.now());
    expect(fromHeaders.id).toBe(eventId);
  });

  it("accepts it with the new and the old secret during a rotation, whichever signed", () => {
    const { body, headers } = delivery();
    const other = `whsec_${btoa("another secret of 32 bytes......")}`;
    expect(verifyWebhook({ body, headers }, [other, secret], h.clock.now()).id).toBe(eventId);
  });

  it.each([
    ["a changed body", (b: string, hd: Record<string, string>) => [b.replace("test", "tesT"), hd] as const],
    ["another secret", (b: string, hd: Record<string, string>) => [b, hd] as const],
    [
      "a changed webhook-id",
      (b: string, hd: Record<string, string>) => [b, { ...hd, "webhook-id": "evt_other" }] as const,
    ],
    [
      "a missing signature",
      (b: string, hd: Record<string, string>) => [b, { ...hd, "webhook-signature": "" }] as const,
    ],
    [
      "a later timestamp",
      (b: string, hd: Record<string, string>) =>
        [b, { ...hd, "webhook-timestamp": String(Number(hd["webhook-timestamp"]) + 1) }] as const,
    ],
  ])("refuses %s", (name, tamper) => {
    const { body, headers } = delivery();
    const [changedBody, changedHeaders] = tamper(body, headers as Record<string, string>);
    const key = name === "another secret" ? `whsec_${btoa("another secret of 32 bytes......")}` : secret;
    expect(() => verifyWebhook({ body: changedBody, headers: changedHeaders }, key, h.clock.now())).toThrow(
      WebhookVerificationError,
    );
  });

  it("refuses a delivery older than five minutes (a replayed capture)", () => {
    const { body, headers } = delivery();
    const later = new Date(h.clock.now().getTime() + 5 * 60_000 + 1_000);
    expect(() => verifyWebhook({ body, headers }, secret, later)).toThrow(/too old/);
  });

  it("handles each webhook-id once, and again after a handler failed", async () => {
    const { body, headers } = delivery();
    const event = verifyWebhook({ body, headers }, secret, h.clock.now());
    const store = memoryDeliveryStore();
    const handled: WebhookEvent[] = [];
    const failing = async () => {
      throw new Error("database down");
    };
    await expect(handleOnce(store, event, failing)).rejects.toThrow("database down");
    expect(await handleOnce(store, event, async (e) => void handled.push(e))).toBe(true);
    expect(await handleOnce(store, event, async (e) => void handled.push(e))).toBe(false);
    expect(handled.map((e) => e.id)).toEqual([eventId]);
  });

  it("forgets ids past their time and beyond its size, oldest first", async () => {
    let now = 0;
    const store = memoryDeliveryStore({ ttlMs: 1_000, max: 2, now: () => now });
    expect(await store.claim("a")).toBe(true);
    expect(await store.claim("a")).toBe(false);
    now = 1_000;
    expect(await store.claim("a")).toBe(true);
    expect(await store.claim("b")).toBe(true);
    expect(await store.claim("c")).toBe(true);
    // "a" was the oldest of three with room for two.
    expect(await store.claim("a")).toBe(true);
    expect(await store.claim("c")).toBe(false);
  });
});
