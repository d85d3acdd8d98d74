import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOCAL_KYC_CALLBACK_SECRET } from "../../dev/local-defaults";
import { route as sendOtp } from "../../functions/identity/send-otp";
import { route as verifyOtp } from "../../functions/identity/verify-otp";
import { ProviderFailure } from "../../lib/kernel/provider-failure";
import { signedHeaders } from "../../lib/webhooks/signature";
import { brebOtps, kycRecords } from "../../schema";
import { createHarness, type Harness } from "../harness/app";
import { bodyOf, errorOf } from "../harness/bodies";
import { freePort } from "../harness/free-port";
import {
  codeFromMailbox,
  identityRequest,
  kycOf,
  liveEnv,
  sendCode,
  UNUSED_PAYOUT_PROVIDER,
  USER,
  verifyCode,
} from "../harness/identity";
import { createTenant, type Tenant } from "../harness/tenants";

async function otpRows(h: Harness, tenant: Tenant): Promise<number> {
  const [row] = await h.database.db
    .select({ n: count() })
    .from(brebOtps)
    .where(eq(brebOtps.integrationId, tenant.integrationId));
  return row?.n ?? 0;
}

describe("BRE-B identity errors", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({ chains: true });
  });
  afterAll(() => h.close());

  it.each([
    ["no @", "ana.example.com"],
    ["two @", "ana@@example.com"],
    ["no domain dot", "ana@example"],
    ["a space", "ana perez@example.com"],
    ["a trailing dot in the local part", "ana.@example.com"],
    ["double dots", "ana..perez@example.com"],
    ["a numeric TLD", "ana@example.123"],
    ["too long", `${"a".repeat(64)}@${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(63)}.com`],
    ["empty", ""],
  ])("refuses an email with %s as INVALID_EMAIL and sends nothing", async (_, email) => {
    const tenant = await createTenant(h);
    const response = await sendCode(h, tenant, email);
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.code).toBe("INVALID_EMAIL");
    expect(error.problems).toEqual([expect.objectContaining({ field: "body.email", code: "INVALID_EMAIL" })]);
    expect(await otpRows(h, tenant)).toBe(0);
  });

  it.each([
    ["all lower case", USER.toLowerCase()],
    ["all upper case", `0x${USER.slice(2).toUpperCase()}`],
    ["a wrong checksum (one letter's case flipped)", USER.replace("dc3A", "Dc3A")],
    ["one digit short", USER.slice(0, -1)],
    ["no 0x", USER.slice(2)],
  ])("refuses a user address in %s as INVALID_USER_ADDRESS, on send, verify and read", async (_, address) => {
    const tenant = await createTenant(h);
    for (const response of [
      await sendCode(h, tenant, "ana@example.com", address),
      await verifyCode(h, tenant, "ana@example.com", "123456", address),
      await identityRequest(h, tenant, `/kyc?userAddress=${address}`),
    ]) {
      expect(response.status).toBe(400);
      expect((await errorOf(response)).code).toBe("INVALID_USER_ADDRESS");
    }
    expect(await otpRows(h, tenant)).toBe(0);
  });

  it("lists every failing field, and refuses unknown fields and a code that is not six digits", async () => {
    const tenant = await createTenant(h);
    const both = await identityRequest(h, tenant, "/kyc/otp/verify", {
      body: { email: "nope", userAddress: "0x1", code: "12345", extra: true },
    });
    expect(both.status).toBe(400);
    const error = await errorOf(both);
    expect(error.code).toBe("INVALID_EMAIL");
    expect(error.problems?.map((p) => [p.field, p.code]).sort()).toEqual([
      ["body.code", "INVALID_REQUEST"],
      ["body.email", "INVALID_EMAIL"],
      ["body.extra", "INVALID_REQUEST"],
      ["body.userAddress", "INVALID_USER_ADDRESS"],
    ]);
  });

  it("refuses a resend within 30 s with 429 and Retry-After, and takes it after", async () => {
    const tenant = await createTenant(h);
    expect((await sendCode(h, tenant, "soon@example.com")).status).toBe(200);
    h.clock.advance(12_000);
    const soon = await sendCode(h, tenant, "soon@example.com");
    expect(soon.status).toBe(429);
    expect(soon.headers.get("retry-after")).toBe("18");
    expect(await errorOf(soon)).toMatchObject({ code: "OTP_RESEND_TOO_SOON", retryable: true });
    // Per email: another user's address does not get round it.
    expect(
      (await sendCode(h, tenant, "soon@example.com", "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC")).status,
    ).toBe(429);
    expect(await otpRows(h, tenant)).toBe(1);
    h.clock.advance(18_000);
    expect((await sendCode(h, tenant, "soon@example.com")).status).toBe(200);
  });

  it("sends at most ten codes per email per hour", async () => {
    const tenant = await createTenant(h);
    const start = h.clock.now().getTime();
    for (let i = 0; i < 10; i++) {
      expect((await sendCode(h, tenant, "many@example.com")).status).toBe(200);
      h.clock.advance(30_000);
    }
    const eleventh = await sendCode(h, tenant, "many@example.com");
    expect(eleventh.status).toBe(429);
    expect((await errorOf(eleventh)).code).toBe("OTP_SEND_LIMIT_REACHED");
    // The first send leaves the hour at start + 1 h.
    const wait = Number(eleventh.headers.get("retry-after"));
    expect(wait).toBe((start + 3_600_000 - h.clock.now().getTime()) / 1000);
    expect((await sendCode(h, tenant, "other@example.com")).status).toBe(200);
    h.clock.advance(wait * 1000);
    expect((await sendCode(h, tenant, "many@example.com")).status).toBe(200);
  });

  it("counts wrong codes, saying how many tries are left, and locks the code at the fifth", async () => {
    const tenant = await createTenant(h);
    await sendCode(h, tenant, "wrong@example.com");
    for (const left of [4, 3, 2, 1]) {
      const wrong = await verifyCode(h, tenant, "wrong@example.com", "000000");
      expect(wrong.status).toBe(400);
      expect(await errorOf(wrong)).toMatchObject({
        code: "OTP_INVALID",
        attemptsLeft: left,
        retryable: true,
      });
    }
    const fifth = await verifyCode(h, tenant, "wrong@example.com", "000000");
    expect(fifth.status).toBe(429);
    expect(await errorOf(fifth)).toMatchObject({ code: "OTP_LOCKED", nextAction: "SEND_NEW_OTP" });
    // Locked for good: even the right code is refused, and KYC is untouched.
    const right = await verifyCode(h, tenant, "wrong@example.com", "123456");
    expect((await errorOf(right)).code).toBe("OTP_LOCKED");
    expect(await kycOf(h, tenant)).toEqual({ status: "not_started" });
    // A new code starts afresh.
    h.clock.advance(30_000);
    await sendCode(h, tenant, "wrong@example.com");
    expect((await verifyCode(h, tenant, "wrong@example.com", "123456")).status).toBe(200);
  });

  it("answers OTP_LOCKED with Retry-After: the seconds until a new code may be sent (at least 1), then a new code verifies", async () => {
    const tenant = await createTenant(h);
    await sendCode(h, tenant, "locked@example.com");
    h.clock.advance(4_000);
    for (let i = 0; i < 4; i++) await verifyCode(h, tenant, "locked@example.com", "000000");
    const fifth = await verifyCode(h, tenant, "locked@example.com", "000000");
    expect((await errorOf(fifth)).code).toBe("OTP_LOCKED");
    expect(fifth.headers.get("retry-after")).toBe("26");
    h.clock.advance(16_000);
    const later = await verifyCode(h, tenant, "locked@example.com", "123456");
    expect((await errorOf(later)).code).toBe("OTP_LOCKED");
    expect(later.headers.get("retry-after")).toBe("10");
    // Sending early is refused for as long as the lock said.
    const early = await sendCode(h, tenant, "locked@example.com");
    expect((await errorOf(early)).code).toBe("OTP_RESEND_TOO_SOON");
    expect(early.headers.get("retry-after")).toBe("10");
    h.clock.advance(10_000);
    const due = await verifyCode(h, tenant, "locked@example.com", "123456");
    expect(due.headers.get("retry-after")).toBe("1");
    expect((await sendCode(h, tenant, "locked@example.com")).status).toBe(200);
    expect((await verifyCode(h, tenant, "locked@example.com", "123456")).status).toBe(200);
  });

  it("keeps a verified code to its five tries and ten minutes: it is not a key to guess at later", async () => {
    const tenant = await createTenant(h);
    await sendCode(h, tenant, "proven@example.com");
    expect((await verifyCode(h, tenant, "proven@example.com", "123456")).status).toBe(200);
    for (const left of [3, 2, 1]) {
      const wrong = await verifyCode(h, tenant, "proven@example.com", "000000");
      expect(await errorOf(wrong)).toMatchObject({ code: "OTP_INVALID", attemptsLeft: left });
    }
    expect((await errorOf(await verifyCode(h, tenant, "proven@example.com", "000000"))).code).toBe(
      "OTP_LOCKED",
    );
    expect((await errorOf(await verifyCode(h, tenant, "proven@example.com", "123456"))).code).toBe(
      "OTP_LOCKED",
    );

    const other = await createTenant(h);
    await sendCode(h, other, "later@example.com");
    expect((await verifyCode(h, other, "later@example.com", "123456")).status).toBe(200);
    h.clock.advance(10 * 60_000);
    expect((await errorOf(await verifyCode(h, other, "later@example.com", "123456"))).code).toBe(
      "OTP_EXPIRED",
    );
  });

  it("refuses a code after its ten minutes as OTP_EXPIRED", async () => {
    const tenant = await createTenant(h);
    await sendCode(h, tenant, "late@example.com");
    h.clock.advance(10 * 60_000);
    const late = await verifyCode(h, tenant, "late@example.com", "123456");
    expect(late.status).toBe(400);
    expect(await errorOf(late)).toMatchObject({ code: "OTP_EXPIRED", nextAction: "SEND_NEW_OTP" });
    expect(await kycOf(h, tenant)).toEqual({ status: "not_started" });
  });

  it("answers OTP_NOT_FOUND when no code was sent for that email and address", async () => {
    const tenant = await createTenant(h);
    await sendCode(h, tenant, "sent@example.com");
    const unsent = await verifyCode(h, tenant, "never@example.com", "123456");
    expect(unsent.status).toBe(404);
    expect((await errorOf(unsent)).code).toBe("OTP_NOT_FOUND");
    const otherAddress = await verifyCode(
      h,
      tenant,
      "sent@example.com",
      "123456",
      "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
    );
    expect((await errorOf(otherAddress)).code).toBe("OTP_NOT_FOUND");
  });
});

describe("BRE-B identity when a provider fails", () => {
  let h: Harness;
  let closedUrl: string;
  beforeAll(async () => {
    closedUrl = `http://127.0.0.1:${await freePort()}`;
    h = await createHarness({
      chains: true,
      identity: true,
      env: { ...liveEnv(), ...UNUSED_PAYOUT_PROVIDER },
    });
  });
  afterAll(() => h.close());

  it("answers EMAIL_UNAVAILABLE in live mode when the email provider is down, and records nothing", async () => {
    const down = await createHarness({
      chains: true,
      identity: true,
      env: { ...liveEnv(), ...UNUSED_PAYOUT_PROVIDER, RESEND_API_URL: closedUrl },
    });
    try {
      const tenant = await createTenant(down);
      const response = await sendCode(down, tenant, "down@example.com");
      expect(response.status).toBe(503);
      expect(await errorOf(response)).toMatchObject({ code: "EMAIL_UNAVAILABLE", retryable: true });
      expect(await otpRows(down, tenant)).toBe(0);
      // Nothing recorded means nothing throttles the retry.
      expect((await sendCode(down, tenant, "down@example.com")).status).toBe(503);
      expect(JSON.stringify(down.logLines)).not.toContain("down@example.com");
    } finally {
      await down.close();
    }
  });

  it("still answers the code in mock mode when the email provider is down, logging the failure", async () => {
    const mock = await createHarness({
      chains: true,
      env: { RESEND_API_KEY: "re_x", RESEND_API_URL: closedUrl },
    });
    try {
      const tenant = await createTenant(mock);
      const response = await sendCode(mock, tenant, "mockdown@example.com");
      expect((await bodyOf(response, sendOtp, 200)).debugCode).toBe("123456");
      expect(mock.logLines).toContainEqual(
        expect.objectContaining({ msg: "otp email failed", to: "m***@example.com" }),
      );
    } finally {
      await mock.close();
    }
  });

  it("answers PROVIDER_UNAVAILABLE when the KYC provider is down, and the same code verifies once it is back", async () => {
    const tenant = await createTenant(h);
    await sendCode(h, tenant, "kycdown@example.com");
    const code = codeFromMailbox(h, "kycdown@example.com");
    const providers = h.deps.providers.identity;
    const kyc = providers.kyc;
    providers.kyc = {
      linksFor: () => Promise.reject(new ProviderFailure("unavailable", "kyc", "the provider is down")),
      statusOf: () => Promise.reject(new Error("unused")),
    };
    const refused = await verifyCode(h, tenant, "kycdown@example.com", code);
    providers.kyc = kyc;
    expect(refused.status).toBe(503);
    expect((await errorOf(refused)).code).toBe("PROVIDER_UNAVAILABLE");
    const retried = await verifyCode(h, tenant, "kycdown@example.com", code);
    expect((await bodyOf(retried, verifyOtp, 200)).kyc.status).toBe("pending");
  });
});

describe("the KYC callback", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({ chains: true, identity: true, env: { MOCK_KYC_AUTO_APPROVE: "false" } });
  });
  afterAll(() => h.close());

  async function pendingRecord() {
    const tenant = await createTenant(h);
    await sendCode(h, tenant, "cb@example.com");
    await verifyCode(h, tenant, "cb@example.com", "123456");
    const [record] = await h.database.db
      .select()
      .from(kycRecords)
      .where(eq(kycRecords.integrationId, tenant.integrationId));
    if (!record?.providerCustomerId) throw new Error("no provider customer");
    return { tenant, record, customerId: record.providerCustomerId };
  }

  function callback(body: string, secret = LOCAL_KYC_CALLBACK_SECRET, at = h.clock.now()) {
    return h.app.request("/callbacks/kyc", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...signedHeaders([secret], `msg_${at.getTime()}`, at, body),
      },
      body,
    });
  }

  const report = (customerId: string, externalId: string, status: string, updatedAt: Date) =>
    JSON.stringify({
      type: "kyc.status",
      data: { customerId, externalId, status, updatedAt: updatedAt.toISOString() },
    });

  it("applies a good signature, and a replay or an older report changes nothing", async () => {
    const { tenant, record, customerId } = await pendingRecord();
    const decidedAt = h.clock.now();
    const approved = report(customerId, record.id, "approved", decidedAt);
    const first = await callback(approved);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ received: true, applied: true });
    expect((await kycOf(h, tenant)).status).toBe("approved");
    const replay = await callback(approved);
    expect(await replay.json()).toEqual({ received: true, applied: false });
    const older = await callback(
      report(customerId, record.id, "rejected", new Date(decidedAt.getTime() - 1000)),
    );
    expect(await older.json()).toEqual({ received: true, applied: false });
    expect((await kycOf(h, tenant)).status).toBe("approved");
  });

  it("never lets a report older than what a poll learned undo it, and lets a decision win a tie with pending", async () => {
    const { tenant, record, customerId } = await pendingRecord();
    const before = new Date(h.clock.now().getTime() - 1_000);
    // The provider approved; its callback was lost, and a read a minute later asked the provider.
    await fetch(`${h.kyc?.url}/customers/${customerId}/decision`, {
      method: "POST",
      headers: { authorization: `Bearer ${h.kyc?.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ status: "approved" }),
    });
    await h.database.db
      .update(kycRecords)
      .set({ status: "pending", providerUpdatedAt: null })
      .where(eq(kycRecords.id, record.id));
    h.clock.advance(61_000);
    expect((await kycOf(h, tenant)).status).toBe("approved");
    // A rejection reported before that read, delivered late, changes nothing.
    const late = await callback(report(customerId, record.id, "rejected", before));
    expect(await late.json()).toEqual({ received: true, applied: false });
    expect((await kycOf(h, tenant)).status).toBe("approved");

    const tied = await pendingRecord();
    const at = new Date(h.clock.now().getTime() + 5_000);
    expect(await (await callback(report(tied.customerId, tied.record.id, "pending", at))).json()).toEqual({
      received: true,
      applied: true,
    });
    expect(await (await callback(report(tied.customerId, tied.record.id, "approved", at))).json()).toEqual({
      received: true,
      applied: true,
    });
    expect((await kycOf(h, tied.tenant)).status).toBe("approved");
  });

  it("answers 200 and changes nothing for a signed report dated before the year 2000 or unreadably", async () => {
    const { tenant, record, customerId } = await pendingRecord();
    const body = JSON.stringify({
      type: "kyc.status",
      data: { customerId, externalId: record.id, status: "approved", updatedAt: "0000-01-01T00:00:00Z" },
    });
    const response = await callback(body);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ received: true, applied: false });
    expect((await kycOf(h, tenant)).status).toBe("pending");
  });

  it("answers a signed callback that is not the documented shape with 400 naming its fields (the provider's fault), changing nothing", async () => {
    const { tenant, customerId } = await pendingRecord();
    const body = JSON.stringify({ type: "kyc.status", data: { customerId, status: "approved" } });
    const response = await callback(body, LOCAL_KYC_CALLBACK_SECRET);
    expect(response.status).toBe(400);
    const { body: error } = await errorOf(response);
    expect(error.error.code).toBe("INVALID_REQUEST");
    expect(error.error.problems?.map((problem) => problem.field).sort()).toEqual([
      "body.data.externalId",
      "body.data.updatedAt",
    ]);
    const notJson = await callback("approved", LOCAL_KYC_CALLBACK_SECRET);
    expect(notJson.status).toBe(400);
    expect((await kycOf(h, tenant)).status).toBe("pending");
  });

  it("refuses a bad signature, a tampered body, a stale timestamp and no signature with 401, changing nothing", async () => {
    const { tenant, record, customerId } = await pendingRecord();
    const body = report(customerId, record.id, "approved", h.clock.now());
    const wrongSecret = `whsec_${btoa("not the callback secret at all!!")}`;
    const stale = new Date(h.clock.now().getTime() - 10 * 60_000);
    const signed = signedHeaders([LOCAL_KYC_CALLBACK_SECRET], "msg_t", h.clock.now(), body);
    for (const response of [
      await callback(body, wrongSecret),
      await callback(body, LOCAL_KYC_CALLBACK_SECRET, stale),
      await h.app.request("/callbacks/kyc", {
        method: "POST",
        headers: { "content-type": "application/json", ...signed },
        body: body.replace("approved", "rejected"),
      }),
      await h.app.request("/callbacks/kyc", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
      }),
    ]) {
      expect(response.status).toBe(401);
      expect((await errorOf(response)).code).toBe("CALLBACK_SIGNATURE_INVALID");
    }
    expect((await kycOf(h, tenant)).status).toBe("pending");
  });

  it("ignores a signed report for a customer it does not know, or for another record than the customer's", async () => {
    const { tenant, record, customerId } = await pendingRecord();
    const unknown = await callback(report("cus_unknown", record.id, "approved", h.clock.now()));
    expect(await unknown.json()).toEqual({ received: true, applied: false });
    const crossed = await callback(report(customerId, "kyc_someone_else", "approved", h.clock.now()));
    expect(await crossed.json()).toEqual({ received: true, applied: false });
    expect((await kycOf(h, tenant)).status).toBe("pending");
  });
});
