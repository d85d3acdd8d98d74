import { describe, expect, it } from "vitest";
import { Copm, CopmApiError, paginate, retryAfterMs } from "../../sdk/src";

/** A fake API: answers each request with the next scripted step, recording what it was sent. */
function scripted(steps: Array<Response | Error>) {
  const sent: Request[] = [];
  const waits: number[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    sent.push(new Request(input, init));
    const step = steps.shift();
    if (!step) throw new Error("no more steps");
    if (step instanceof Error) throw step;
    return step;
  };
  const copm = new Copm({
    baseUrl: "http://copm.test",
    apiKey: "copm_test_key",
    fetch,
    retry: { maxRetries: 2, baseDelayMs: 100, sleep: async (ms) => void waits.push(ms) },
  });
  return { copm, sent, waits };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
const failure = (code: string, status: number, retryable: boolean) =>
  json(status, {
    error: {
      code,
      message: code,
      stage: "REQUEST",
      fundsStatus: "IN_USER_WALLET",
      fundsMoved: false,
      retryable,
      nextAction: "RETRY_LATER",
    },
  });
const events = json(200, { events: [], nextCursor: null });
const quoteBody = { sendAmountUsdc: "10", sourceAddress: "0x0", destinationAddress: "0x0" };

describe("the SDK's retries", () => {
  it("retries a 429 after the Retry-After it names, then answers", async () => {
    const { copm, sent, waits } = scripted([
      new Response(JSON.stringify({ error: { code: "RATE_LIMITED" } }), {
        status: 429,
        headers: { "retry-after": "2" },
      }),
      events,
    ]);
    expect((await copm.listWebhookEvents()).data).toEqual({ events: [], nextCursor: null });
    expect(sent).toHaveLength(2);
    expect(waits).toEqual([2_000]);
  });

  it("retries a 429 even for a POST without a key (refused before anything ran)", async () => {
    const { copm, sent } = scripted([failure("RATE_LIMITED", 429, true), json(201, { quoteId: "q1" })]);
    await copm.createSettlementQuote({ body: quoteBody });
    expect(sent).toHaveLength(2);
  });

  it("retries a 503 and a network failure of an idempotent call, backing off, and gives up after maxRetries with the last error", async () => {
    const { copm, sent, waits } = scripted([
      new TypeError("fetch failed"),
      failure("PROVIDER_UNAVAILABLE", 503, true),
      failure("PROVIDER_UNAVAILABLE", 503, true),
    ]);
    const error = await copm.listWebhookEvents().catch((e: unknown) => e);
    expect(sent).toHaveLength(3);
    expect(waits).toHaveLength(2);
    expect(waits[1]).toBeGreaterThan(waits[0] ?? Infinity);
    expect(error).toBeInstanceOf(CopmApiError);
    expect(error).toMatchObject({ status: 503, code: "PROVIDER_UNAVAILABLE", retryable: true });
  });

  it("never retries a POST without its key on a 503 or a network failure: it may have run", async () => {
    const unavailable = scripted([failure("PROVIDER_UNAVAILABLE", 503, true), events]);
    await expect(unavailable.copm.createSettlementQuote({ body: quoteBody })).rejects.toMatchObject({
      status: 503,
    });
    expect(unavailable.sent).toHaveLength(1);

    const dropped = scripted([new TypeError("fetch failed"), events]);
    const error = await dropped.copm.createSettlementQuote({ body: quoteBody }).catch((e: unknown) => e);
    expect(dropped.sent).toHaveLength(1);
    expect(error).toMatchObject({ status: 0, code: "NETWORK_ERROR", retryable: true });
    expect((error as CopmApiError).cause).toBeInstanceOf(TypeError);
  });

  it("retries a creation that carries its Idempotency-Key, sending the same key and body each time", async () => {
    const { copm, sent } = scripted([
      new TypeError("socket hang up"),
      failure("PROVIDER_UNAVAILABLE", 503, true),
      json(201, { orderId: "ord_1" }),
    ]);
    const { data } = await copm.createSettlementOrder({ body: { quoteId: "q1" } });
    expect(data).toEqual({ orderId: "ord_1" });
    expect(sent).toHaveLength(3);
    const keys = sent.map((request) => request.headers.get("idempotency-key"));
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(await Promise.all(sent.map((request) => request.text()))).toEqual(
      Array(3).fill('{"quoteId":"q1"}'),
    );
  });

  it("gives a new call its own key", async () => {
    const { copm, sent } = scripted([json(201, { orderId: "a" }), json(201, { orderId: "b" })]);
    await copm.createSettlementOrder({ body: { quoteId: "q1" } });
    await copm.createSettlementOrder({ body: { quoteId: "q2" } });
    expect(sent[0]?.headers.get("idempotency-key")).not.toBe(sent[1]?.headers.get("idempotency-key"));
  });

  it("does not wait a Retry-After longer than maxDelayMs: the error is thrown at once", async () => {
    const { copm, sent, waits } = scripted([
      new Response("{}", { status: 429, headers: { "retry-after": "3600" } }),
      events,
    ]);
    await expect(copm.listWebhookEvents()).rejects.toMatchObject({ status: 429 });
    expect(sent).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it("reads Retry-After as seconds or as an HTTP date", () => {
    const now = Date.parse("2026-11-25T12:00:00Z");
    expect(retryAfterMs("5", now)).toBe(5_000);
    expect(retryAfterMs("Wed, 25 Nov 2026 12:00:30 GMT", now)).toBe(30_000);
    expect(retryAfterMs("Wed, 25 Nov 2026 11:00:00 GMT", now)).toBe(0);
    expect(retryAfterMs("soon", now)).toBeUndefined();
    // Not a number of seconds, not an HTTP date (Date.parse would read them as years).
    expect(retryAfterMs("1.5", now)).toBeUndefined();
    expect(retryAfterMs("-5", now)).toBeUndefined();
    // RFC 9110's obsolete RFC 850 form, which recipients must still accept.
    expect(retryAfterMs("Wednesday, 25-Nov-26 12:00:30 GMT", now)).toBe(30_000);
    expect(retryAfterMs(null, now)).toBeUndefined();
  });

  it("does not retry a 429 the operation itself answers (a code resent too soon would replace the one the user has)", async () => {
    const { copm, sent } = scripted([failure("OTP_RESEND_TOO_SOON", 429, true), events]);
    await expect(copm.listWebhookEvents()).rejects.toMatchObject({
      status: 429,
      code: "OTP_RESEND_TOO_SOON",
    });
    expect(sent).toHaveLength(1);
  });

  it("does not retry a 503 whose answer says it is not retryable", async () => {
    const { copm, sent } = scripted([failure("WEBHOOKS_UNCONFIGURED", 503, false), events]);
    await expect(copm.listWebhookEvents()).rejects.toMatchObject({ code: "WEBHOOKS_UNCONFIGURED" });
    expect(sent).toHaveLength(1);
  });

  it("does not retry a PUT or a DELETE whose answer was lost (a new endpoint's secret is in its first answer only)", async () => {
    const put = scripted([new TypeError("fetch failed"), json(200, {})]);
    await expect(
      put.copm.putWebhookEndpoint({ body: { url: "https://hooks.example.com/x" } }),
    ).rejects.toMatchObject({
      code: "NETWORK_ERROR",
    });
    expect(put.sent).toHaveLength(1);
    const remove = scripted([new TypeError("fetch failed"), json(200, {})]);
    await expect(remove.copm.deleteWebhookEndpoint()).rejects.toMatchObject({ code: "NETWORK_ERROR" });
    expect(remove.sent).toHaveLength(1);
  });

  it("keeps the caller's own idempotency key in whatever casing it was written, and hands back a readable request", async () => {
    const { copm, sent } = scripted([json(201, { orderId: "a" }), json(201, { orderId: "a" })]);
    const headers = { "Idempotency-Key": "my-key-1" } as unknown as { "idempotency-key": string };
    const { request } = await copm.createSettlementOrder({ body: { quoteId: "q1" }, headers });
    await copm.createSettlementOrder({
      body: { quoteId: "q1" },
      headers: new Headers({ "IDEMPOTENCY-KEY": "my-key-1" }) as never,
    });
    expect(sent.map((r) => r.headers.get("idempotency-key"))).toEqual(["my-key-1", "my-key-1"]);
    expect(await request.text()).toBe('{"quoteId":"q1"}');
  });

  it("stops a listing that answers its own cursor as the next one instead of reading it forever", async () => {
    const { copm } = scripted([
      json(200, { events: [{ id: "evt_1" }], nextCursor: "evt_1" }),
      json(200, { events: [{ id: "evt_1" }], nextCursor: "evt_1" }),
      json(200, { events: [], nextCursor: null }),
    ]);
    const seen: string[] = [];
    const reading = (async () => {
      for await (const event of paginate((options) => copm.listWebhookEvents(options), {}))
        seen.push(event.id);
    })();
    await expect(reading).rejects.toThrow(/its own cursor evt_1/);
    expect(seen).toEqual(["evt_1", "evt_1"]);
  });
});
