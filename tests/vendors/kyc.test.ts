import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, it } from "vitest";
import { type CallbackDeliver, type SandboxKyc, startSandboxKyc } from "../../dev/kyc-provider";
import { startWebhookReceiver } from "../../dev/webhook-receiver";
import type { KycProvider } from "../../lib/identity/ports";
import { ProviderFailure } from "../../lib/kernel/provider-failure";
import { httpKycProvider, verifyKycCallback } from "../../lib/vendors/kyc/kyc-http";
import { startRecordedHttpServer } from "./recorded-http-server";

const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const OTHER_SECRET = "whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD";
const EMAIL = "juana.perez@example.com";
const WALLET = "0x00000000000000000000000000000000000a11ce";
const TIMEOUT_MS = 300;

/** One callback as the sandbox delivered it. */
interface Delivered {
  body: string;
  headers: Record<string, string>;
}

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A sandbox whose callbacks land in `delivered`, answered with the statuses `answers` gives per attempt. */
async function sandbox(answers: (attempt: number) => number = () => 200) {
  const delivered: Delivered[] = [];
  const deliver: CallbackDeliver = async (body, headers) => {
    delivered.push({ body, headers });
    return { status: answers(delivered.length) };
  };
  const kyc = await startSandboxKyc({ callbackSecret: SECRET, deliver });
  cleanups.push(() => kyc.close());
  const provider = httpKycProvider({ baseUrl: kyc.url, apiKey: kyc.apiKey, timeoutMs: 2_000 });
  return { kyc, provider, delivered };
}

async function customerAt(provider: KycProvider, externalId = "usr_1", email = EMAIL) {
  return provider.linksFor({ externalId, email, walletAddress: WALLET });
}

async function decideOnPage(kycLink: string, decision: string): Promise<Response> {
  return fetch(`${kycLink}/decision`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ decision }).toString(),
  });
}

async function failureOf(attempt: Promise<unknown>): Promise<ProviderFailure> {
  const error = await attempt.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof ProviderFailure))
    throw new Error(`expected a ProviderFailure, got ${String(error)}`);
  return error;
}

/** A callback signed with `secret` at `at`, as the provider would send it. */
function signedCallback(body: string, at: Date, secret = SECRET): Record<string, string> {
  const id = "msg_test_1";
  return {
    "webhook-id": id,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": new Webhook(secret).sign(id, at, body),
  };
}

const CALLBACK_BODY = JSON.stringify({
  type: "kyc.status",
  data: {
    customerId: "cus_1",
    externalId: "usr_1",
    status: "approved",
    updatedAt: "2026-01-01T00:00:00.000Z",
  },
});
const SIGNED_AT = new Date("2026-01-01T00:00:00Z");

describe("KYC provider adapter against the sandbox", () => {
  it("creates a pending customer whose links are the sandbox pages, and finds it again by externalId", async () => {
    const { kyc, provider } = await sandbox();
    const first = await customerAt(provider);
    expect(first).toEqual({
      customerId: expect.stringMatching(/^cus_/),
      status: "pending",
      kycLink: `${kyc.url}/kyc/${first.customerId}`,
      termsLink: `${kyc.url}/terms/${first.customerId}`,
    });
    expect((await fetch(first.termsLink)).status).toBe(200);

    const again = await customerAt(provider, "usr_1", "maria@example.org");
    expect(again).toEqual(first);
    // The same customer now carries the new email.
    expect(await (await fetch(again.kycLink)).text()).toContain("m***@example.org");

    const other = await customerAt(provider, "usr_2");
    expect(other.customerId).not.toBe(first.customerId);
  });

  it("reads a customer's current status with statusOf", async () => {
    const { kyc, provider } = await sandbox();
    const customer = await customerAt(provider);
    expect(await provider.statusOf(customer.customerId)).toEqual(customer);

    const decided = await fetch(`${kyc.url}/customers/${customer.customerId}/decision`, {
      method: "POST",
      headers: { authorization: `Bearer ${kyc.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ status: "rejected" }),
    });
    expect(decided.status).toBe(200);
    expect(await provider.statusOf(customer.customerId)).toEqual({ ...customer, status: "rejected" });
  });

  it("renders the KYC page with both decision buttons and the email masked, never in full", async () => {
    const { provider } = await sandbox();
    const customer = await customerAt(provider);
    const page = await fetch(customer.kycLink);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain("j***@example.com");
    expect(html).not.toContain(EMAIL);
    expect(html).not.toContain("juana");
    expect(html).toMatch(/<h1>/);
    expect(html).toContain("pending");
    const forms = [...html.matchAll(/<form method="post" action="([^"]+)">[\s\S]*?<\/form>/g)];
    expect(forms.map((form) => form[1])).toEqual([
      `${customer.kycLink}/decision`,
      `${customer.kycLink}/decision`,
    ]);
    expect(forms[0]?.[0]).toMatch(
      /name="decision" value="approved"[\s\S]*<button type="submit">[^<]*Aprobar/,
    );
    expect(forms[1]?.[0]).toMatch(
      /name="decision" value="rejected"[\s\S]*<button type="submit">[^<]*Rechazar/,
    );
  });

  it("escapes what the pages show", async () => {
    const { provider } = await sandbox();
    const customer = await customerAt(provider, "usr_x", "<img>@example.com");
    const html = await (await fetch(customer.kycLink)).text();
    expect(html).toContain("&lt;***@example.com");
    expect(html).not.toContain("<***");
  });

  it("sends a signed callback on a decision from the page, which verifyKycCallback accepts", async () => {
    const { provider, delivered } = await sandbox();
    const customer = await customerAt(provider);

    const answer = await decideOnPage(customer.kycLink, "approved");
    expect(answer.status).toBe(200);
    expect(await answer.text()).toMatch(/Decision recorded/);
    expect(delivered).toHaveLength(1);
    const [callback] = delivered as [Delivered];
    expect(callback.headers["webhook-id"]).toMatch(/^msg_/);
    expect(verifyKycCallback(SECRET, callback.body, callback.headers, new Date())).toEqual({
      customerId: customer.customerId,
      externalId: "usr_1",
      status: "approved",
      updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect((await provider.statusOf(customer.customerId)).status).toBe("approved");

    await decideOnPage(customer.kycLink, "rejected");
    const second = delivered[1] as Delivered;
    expect(second.headers["webhook-id"]).not.toBe(callback.headers["webhook-id"]);
    expect(verifyKycCallback(SECRET, second.body, second.headers, new Date())?.status).toBe("rejected");

    expect((await decideOnPage(customer.kycLink, "maybe")).status).toBe(400);
    expect(delivered).toHaveLength(2);
  });

  it("POSTs the callback to callbackUrl when no deliver is given", async () => {
    const receiver = await startWebhookReceiver({ path: "/callbacks/kyc" });
    cleanups.push(() => receiver.close());
    const kyc: SandboxKyc = await startSandboxKyc({ callbackSecret: SECRET, callbackUrl: receiver.url });
    cleanups.push(() => kyc.close());
    const provider = httpKycProvider({ baseUrl: kyc.url, apiKey: kyc.apiKey, timeoutMs: 2_000 });
    const customer = await customerAt(provider);

    await decideOnPage(customer.kycLink, "approved");
    expect(receiver.received).toHaveLength(1);
    const [callback] = receiver.received;
    expect(
      verifyKycCallback(SECRET, callback?.body ?? "", { ...callback?.headers }, new Date()),
    ).toMatchObject({
      customerId: customer.customerId,
      status: "approved",
    });
  });

  it("retries a failed callback under the same id, a bounded number of times", async () => {
    const flaky = await sandbox((attempt) => (attempt <= 2 ? 503 : 200));
    const customer = await customerAt(flaky.provider);
    await decideOnPage(customer.kycLink, "approved");
    expect(flaky.delivered).toHaveLength(3);
    expect(new Set(flaky.delivered.map((d) => d.headers["webhook-id"])).size).toBe(1);
    for (const attempt of flaky.delivered) {
      expect(verifyKycCallback(SECRET, attempt.body, attempt.headers, new Date())?.status).toBe("approved");
    }

    const down = await sandbox(() => 500);
    const stuck = await customerAt(down.provider);
    const answer = await decideOnPage(stuck.kycLink, "rejected");
    expect(await answer.text()).toMatch(/not delivered after 4 attempts/);
    expect(down.delivered).toHaveLength(4);
    // The decision stands even though nobody was told.
    expect((await down.provider.statusOf(stuck.customerId)).status).toBe("rejected");
  });

  it("signs callbacks at the sandbox's clock", async () => {
    const at = new Date("2026-03-01T12:00:00Z");
    const delivered: Delivered[] = [];
    const kyc = await startSandboxKyc({
      callbackSecret: SECRET,
      now: () => at,
      deliver: async (body, headers) => {
        delivered.push({ body, headers });
        return { status: 204 };
      },
    });
    cleanups.push(() => kyc.close());
    const provider = httpKycProvider({ baseUrl: kyc.url, apiKey: kyc.apiKey, timeoutMs: 2_000 });
    await decideOnPage((await customerAt(provider)).kycLink, "approved");
    const [callback] = delivered as [Delivered];
    expect(callback.headers["webhook-timestamp"]).toBe(String(at.getTime() / 1000));
    expect(verifyKycCallback(SECRET, callback.body, callback.headers, at)?.updatedAt).toBe(at.toISOString());
    // Checked at the injected time, not the machine's: the same callback is stale at the real now.
    expect(verifyKycCallback(SECRET, callback.body, callback.headers, new Date())).toBeUndefined();
  });

  it("answers 401 to the API without the right bearer key", async () => {
    const { kyc } = await sandbox();
    const body = JSON.stringify({ externalId: "usr_1", email: EMAIL, walletAddress: WALLET });
    const anonymous = await fetch(`${kyc.url}/customers`, { method: "POST", body });
    expect(anonymous.status).toBe(401);
    const wrong = await fetch(`${kyc.url}/customers`, {
      method: "POST",
      headers: { authorization: "Bearer not-the-key" },
      body,
    });
    expect(wrong.status).toBe(401);
  });
});

describe("verifyKycCallback", () => {
  it("accepts a genuine callback within five minutes either way, with header names in any case", () => {
    const headers = signedCallback(CALLBACK_BODY, SIGNED_AT);
    const expected = {
      customerId: "cus_1",
      externalId: "usr_1",
      status: "approved",
      updatedAt: "2026-01-01T00:00:00.000Z",
    };
    expect(verifyKycCallback(SECRET, CALLBACK_BODY, headers, SIGNED_AT)).toEqual(expected);
    for (const offsetMs of [-299_000, 299_000]) {
      const now = new Date(SIGNED_AT.getTime() + offsetMs);
      expect(verifyKycCallback(SECRET, CALLBACK_BODY, headers, now)).toEqual(expected);
    }
    const shouted = Object.fromEntries(
      Object.entries(headers).map(([name, value]) => [name.toUpperCase(), value]),
    );
    expect(verifyKycCallback(SECRET, CALLBACK_BODY, shouted, SIGNED_AT)).toEqual(expected);
    // During a secret rotation the header carries several signatures; one matching is enough.
    const rotated = {
      ...headers,
      "webhook-signature": `${new Webhook(OTHER_SECRET).sign("msg_test_1", SIGNED_AT, CALLBACK_BODY)} ${headers["webhook-signature"]}`,
    };
    expect(verifyKycCallback(SECRET, CALLBACK_BODY, rotated, SIGNED_AT)).toEqual(expected);
  });

  it("refuses a tampered body, a wrong secret and a timestamp ten minutes off", () => {
    const headers = signedCallback(CALLBACK_BODY, SIGNED_AT);
    const tampered = CALLBACK_BODY.replace('"approved"', '"rejected"');
    expect(tampered).not.toBe(CALLBACK_BODY);
    expect(verifyKycCallback(SECRET, tampered, headers, SIGNED_AT)).toBeUndefined();
    expect(verifyKycCallback(OTHER_SECRET, CALLBACK_BODY, headers, SIGNED_AT)).toBeUndefined();
    const tenMinutes = 10 * 60_000;
    for (const offsetMs of [-tenMinutes, tenMinutes]) {
      const now = new Date(SIGNED_AT.getTime() + offsetMs);
      expect(verifyKycCallback(SECRET, CALLBACK_BODY, headers, now)).toBeUndefined();
    }
    // A timestamp moved after signing no longer matches the signature.
    const moved = { ...headers, "webhook-timestamp": String(SIGNED_AT.getTime() / 1000 + 1) };
    expect(verifyKycCallback(SECRET, CALLBACK_BODY, moved, SIGNED_AT)).toBeUndefined();
  });

  it("is undefined, never a throw, for garbage and for a signed body of the wrong shape", () => {
    const headers = signedCallback(CALLBACK_BODY, SIGNED_AT);
    const signedGarbage = (body: string) =>
      verifyKycCallback(SECRET, body, signedCallback(body, SIGNED_AT), SIGNED_AT);
    const { "webhook-signature": _signature, ...unsigned } = headers;
    const cases: Array<() => unknown> = [
      () => verifyKycCallback(SECRET, CALLBACK_BODY, {}, SIGNED_AT),
      () => verifyKycCallback(SECRET, CALLBACK_BODY, unsigned, SIGNED_AT),
      () => verifyKycCallback(SECRET, CALLBACK_BODY, { ...headers, "webhook-timestamp": "soon" }, SIGNED_AT),
      () =>
        verifyKycCallback(SECRET, CALLBACK_BODY, { ...headers, "webhook-signature": "v1,AAAA" }, SIGNED_AT),
      () => verifyKycCallback(SECRET, CALLBACK_BODY, { ...headers, "webhook-signature": "" }, SIGNED_AT),
      () => verifyKycCallback("", CALLBACK_BODY, headers, SIGNED_AT),
      () => verifyKycCallback("whsec_%%%not-base64", CALLBACK_BODY, headers, SIGNED_AT),
      () => verifyKycCallback(SECRET, CALLBACK_BODY, headers, new Date(Number.NaN)),
      () => verifyKycCallback(SECRET, CALLBACK_BODY, null as unknown as Record<string, string>, SIGNED_AT),
      () => signedGarbage("not json {"),
      () => signedGarbage(""),
      () => signedGarbage("null"),
      () => signedGarbage(JSON.stringify({ type: "kyc.other", data: JSON.parse(CALLBACK_BODY).data })),
      () =>
        signedGarbage(
          JSON.stringify({ type: "kyc.status", data: { customerId: "cus_1", status: "approved" } }),
        ),
      () => signedGarbage(CALLBACK_BODY.replace('"approved"', '"not_started"')),
      () => signedGarbage(CALLBACK_BODY.replace("2026-01-01T00:00:00.000Z", "yesterday")),
    ];
    for (const [index, attempt] of cases.entries()) {
      expect(attempt, `case ${index}`).not.toThrow();
      expect(attempt(), `case ${index}`).toBeUndefined();
    }
    // The control: the same helper accepts the genuine body, so the cases above fail for their own reason.
    expect(signedGarbage(CALLBACK_BODY)).toBeDefined();
  });
});

describe("KYC provider adapter failures", () => {
  it("is unavailable when the provider is down", async () => {
    const kyc = await startSandboxKyc({ callbackSecret: SECRET });
    await kyc.close();
    const provider = httpKycProvider({ baseUrl: kyc.url, apiKey: kyc.apiKey, timeoutMs: TIMEOUT_MS });
    const failure = await failureOf(customerAt(provider));
    expect({ kind: failure.kind, provider: failure.provider }).toEqual({
      kind: "unavailable",
      provider: "kyc",
    });
    expect(failure.message).not.toContain(EMAIL);
  });

  it("is unavailable when the provider answers slower than the timeout", async () => {
    const slow = await startRecordedHttpServer();
    cleanups.push(() => slow.close());
    slow.answerWith("hang");
    const provider = httpKycProvider({ baseUrl: slow.baseUrl, apiKey: "k", timeoutMs: TIMEOUT_MS });
    for (const attempt of [() => customerAt(provider), () => provider.statusOf("cus_1")]) {
      const startedAt = performance.now();
      const failure = await failureOf(attempt());
      expect(failure.kind).toBe("unavailable");
      expect(failure.message).toMatch(/did not answer within 300 ms/);
      expect(performance.now() - startedAt).toBeLessThan(TIMEOUT_MS + 800);
    }
  });

  it("refuses a wrong API key without naming the key or the email", async () => {
    const { kyc } = await sandbox();
    const wrongKey = "kyc_wrong_key_0123456789";
    const provider = httpKycProvider({ baseUrl: kyc.url, apiKey: wrongKey, timeoutMs: 2_000 });
    const failure = await failureOf(customerAt(provider));
    expect(failure.kind).toBe("unavailable");
    expect(failure.message).toMatch(/HTTP 401/);
    expect(failure.message).not.toContain(wrongKey);
    expect(failure.message).not.toContain(EMAIL);

    // A provider that echoes the request in its refusal must not carry the key or email into ours.
    const echoing = await startRecordedHttpServer();
    cleanups.push(() => echoing.close());
    echoing.answerWith({
      status: 401,
      body: JSON.stringify({ error: `key ${wrongKey} is not valid`, request: { email: EMAIL } }),
    });
    const echoed = await failureOf(
      customerAt(httpKycProvider({ baseUrl: echoing.baseUrl, apiKey: wrongKey, timeoutMs: 2_000 })),
    );
    expect(echoed.message).toMatch(/HTTP 401/);
    expect(echoed.message).not.toContain(wrongKey);
    expect(echoed.message).not.toContain(EMAIL);
  });

  it("sends the documented request and is unavailable on 5xx, 429, 404 and answers of the wrong shape", async () => {
    const scripted = await startRecordedHttpServer();
    cleanups.push(() => scripted.close());
    const provider = httpKycProvider({ baseUrl: `${scripted.baseUrl}/`, apiKey: "k-1", timeoutMs: 2_000 });
    const good = {
      customerId: "cus_1",
      status: "pending",
      kycLink: "https://kyc.test/k",
      termsLink: "https://kyc.test/t",
    };
    scripted.answerWith({ status: 201, body: JSON.stringify(good) });
    expect(await customerAt(provider)).toEqual(good);
    const sent = scripted.received.at(-1);
    expect([sent?.method, sent?.url.pathname, sent?.headers.authorization]).toEqual([
      "POST",
      "/customers",
      "Bearer k-1",
    ]);
    expect(sent?.headers["content-type"]).toBe("application/json");

    const answers = [
      { status: 500, body: "oops" },
      { status: 503, body: "<html>down</html>" },
      { status: 429, body: '{"error":"slow down"}' },
      { status: 400, body: '{"error":"bad request"}' },
      { status: 200, body: "not json" },
      { status: 200, body: JSON.stringify({ ...good, status: "approved_ish" }) },
      { status: 200, body: JSON.stringify({ ...good, customerId: undefined }) },
      { status: 200, body: JSON.stringify({ ...good, kycLink: "javascript:alert(1)" }) },
      { status: 200, body: JSON.stringify({ ...good, email: EMAIL, termsLink: 7 }) },
    ];
    for (const answer of answers) {
      scripted.answerWith(answer);
      const failure = await failureOf(customerAt(provider));
      expect({ status: answer.status, kind: failure.kind }).toEqual({
        status: answer.status,
        kind: "unavailable",
      });
      expect(failure.message).not.toContain(EMAIL);
    }

    scripted.answerWith({ status: 404, body: '{"error":"no customer"}' });
    expect((await failureOf(provider.statusOf("cus_404"))).kind).toBe("unavailable");
    expect(scripted.received.at(-1)?.url.pathname).toBe("/customers/cus_404");
    // An answer about another customer is not this customer's status.
    scripted.answerWith({ status: 200, body: JSON.stringify({ ...good, customerId: "cus_2" }) });
    expect((await failureOf(provider.statusOf("cus_1"))).kind).toBe("unavailable");
  });
});
