import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { route as sendOtp } from "../../functions/identity/send-otp";
import { route as verifyOtp } from "../../functions/identity/verify-otp";
import { otpHash } from "../../lib/identity/otp-code";
import { brebOtps, kycRecords } from "../../schema";
import { createHarness, type Harness } from "../harness/app";
import { bodyOf, errorOf } from "../harness/bodies";
import {
  codeFromMailbox,
  identityRequest,
  kycOf,
  liveEnv,
  OTHER_USER,
  sendCode,
  UNUSED_PAYOUT_PROVIDER,
  USER,
  verifyCode,
} from "../harness/identity";
import { createTenant } from "../harness/tenants";

describe("BRE-B identity in mock mode", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({ chains: true, identity: true });
  });
  afterAll(() => h.close());

  it("sends a code answered as debugCode, verifies it and approves KYC at once", async () => {
    const tenant = await createTenant(h);
    expect(await kycOf(h, tenant)).toEqual({ status: "not_started" });
    const sent = await sendCode(h, tenant, "Ana.Perez@Example.com");
    expect(sent.status).toBe(200);
    // The whole body, as sent: nothing beyond these fields.
    const body: unknown = await sent.json();
    expect(body).toEqual({
      otpId: expect.stringMatching(/^otp_/),
      expiresAt: new Date(h.clock.now().getTime() + 10 * 60_000).toISOString(),
      resendAfter: new Date(h.clock.now().getTime() + 30_000).toISOString(),
      debugCode: "123456",
    });
    // Emails match whatever their case.
    const verified = await verifyCode(h, tenant, "ana.perez@example.com", "123456");
    expect(verified.status).toBe(200);
    expect(await verified.json()).toEqual({ kyc: { status: "approved" } });
    expect(await kycOf(h, tenant)).toEqual({ status: "approved" });
  });

  it("stores the code only as its HMAC, bound to the row", async () => {
    const tenant = await createTenant(h);
    const { otpId } = await bodyOf(await sendCode(h, tenant, "hash@example.com"), sendOtp, 200);
    const [row] = await h.database.db.select().from(brebOtps).where(eq(brebOtps.id, otpId));
    expect(row?.codeHash).toMatch(/^[0-9a-f]{64}$/);
    // Not in any other field. (The HMAC's 64 hex digits hold "123456" by chance once in ~300,000
    // runs, which CI met once: the hash is checked for what it is below, not for the digits.)
    expect(JSON.stringify({ ...row, codeHash: undefined })).not.toContain("123456");
    expect(row?.codeHash).toBe(await otpHash(h.deps.config, otpId, "123456"));
    expect(row?.codeHash).not.toBe(await otpHash(h.deps.config, "otp_another", "123456"));
  });

  it("also emails the code through the email provider to the local mailbox, and logs neither the address nor the code", async () => {
    const tenant = await createTenant(h);
    await sendCode(h, tenant, "mailed@example.com");
    const email = h.mailbox?.emails().find((stored) => stored.to.includes("mailed@example.com"));
    expect(email?.subject).toBe("Tu código de verificación COPm");
    expect(email?.from).toBe("COPm sandbox <codes@copm.localhost>");
    expect(codeFromMailbox(h, "mailed@example.com")).toBe("123456");
    const logged = JSON.stringify(h.logLines);
    expect(logged).toContain("m***@example.com");
    expect(logged).not.toContain("mailed@example.com");
    expect(logged).not.toContain("123456");
  });

  it("answers the same KYC when the right code is verified again", async () => {
    const tenant = await createTenant(h);
    await sendCode(h, tenant, "again@example.com");
    const first = await (await verifyCode(h, tenant, "again@example.com", "123456")).json();
    const second = await verifyCode(h, tenant, "again@example.com", "123456");
    expect(second.status).toBe(200);
    expect(await second.json()).toEqual(first);
  });

  it("keeps a user's verified email and KYC per integration and address", async () => {
    const tenant = await createTenant(h);
    await sendCode(h, tenant, "two@example.com", OTHER_USER);
    await verifyCode(h, tenant, "two@example.com", "123456", OTHER_USER);
    expect(await kycOf(h, tenant, OTHER_USER)).toEqual({ status: "approved" });
    expect(await kycOf(h, tenant, USER)).toEqual({ status: "not_started" });
    const [record] = await h.database.db
      .select()
      .from(kycRecords)
      .where(eq(kycRecords.integrationId, tenant.integrationId));
    expect(record).toMatchObject({ userAddress: OTHER_USER, email: "two@example.com", status: "approved" });
  });
});

describe("BRE-B identity with the KYC provider (mock mode without auto-approval)", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({ chains: true, identity: true, env: { MOCK_KYC_AUTO_APPROVE: "false" } });
  });
  afterAll(() => h.close());

  it("answers pending with the provider's links, then approved once a person approves on the provider's page", async () => {
    const tenant = await createTenant(h);
    await sendCode(h, tenant, "kyc@example.com");
    const verified = await verifyCode(h, tenant, "kyc@example.com", "123456");
    const { kyc } = await bodyOf(verified, verifyOtp, 200);
    expect(kyc.status).toBe("pending");
    expect(kyc.kycLink).toMatch(new RegExp(`^${h.kyc?.url}/kyc/`));
    expect(kyc.termsLink).toMatch(new RegExp(`^${h.kyc?.url}/terms/`));
    expect(await kycOf(h, tenant)).toEqual(kyc);
    const kycLink = kyc.kycLink ?? "";

    const page = await (await fetch(kycLink)).text();
    expect(page).toContain("k***@example.com");
    const decided = await fetch(`${kycLink}/decision`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "decision=approved",
      redirect: "manual",
    });
    expect(decided.status).toBeLessThan(400);
    expect(await kycOf(h, tenant)).toEqual({ status: "approved" });
  });

  it("records a rejection, and the links stay for the user to try again", async () => {
    const tenant = await createTenant(h);
    await sendCode(h, tenant, "no@example.com");
    const { kyc } = await bodyOf(await verifyCode(h, tenant, "no@example.com", "123456"), verifyOtp, 200);
    expect(kyc.kycLink).toBeDefined();
    await fetch(`${kyc.kycLink}/decision`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "decision=rejected",
      redirect: "manual",
    });
    const read = await kycOf(h, tenant);
    expect(read.status).toBe("rejected");
    expect(read.kycLink).toBe(kyc.kycLink);
  });
});

describe("BRE-B identity in live mode", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({
      chains: true,
      identity: true,
      env: { ...liveEnv(), ...UNUSED_PAYOUT_PROVIDER },
    });
  });
  afterAll(() => h.close());

  it("never answers debugCode: the code arrives by email, and verifying it links the user at the provider", async () => {
    const tenant = await createTenant(h);
    const sent = await sendCode(h, tenant, "live@example.com");
    expect(sent.status).toBe(200);
    const body: unknown = await sent.json();
    expect(body).not.toHaveProperty("debugCode");
    const code = codeFromMailbox(h, "live@example.com");
    expect(code).toMatch(/^\d{6}$/);
    const verified = await verifyCode(h, tenant, "live@example.com", code);
    const { kyc } = await bodyOf(verified, verifyOtp, 200);
    expect(kyc.status).toBe("pending");
    expect(kyc.kycLink).toBeDefined();
  });

  it("checks only the newest code: a resend makes the earlier one wrong", async () => {
    const tenant = await createTenant(h);
    await sendCode(h, tenant, "newest@example.com");
    const first = codeFromMailbox(h, "newest@example.com");
    h.clock.advance(30_000);
    await sendCode(h, tenant, "newest@example.com");
    const second = codeFromMailbox(h, "newest@example.com");
    if (first === second) return; // one chance in a million: nothing to tell apart
    const stale = await verifyCode(h, tenant, "newest@example.com", first);
    expect(stale.status).toBe(400);
    expect((await errorOf(stale)).code).toBe("OTP_INVALID");
    expect((await verifyCode(h, tenant, "newest@example.com", second)).status).toBe(200);
  });

  it("refreshes a pending status from the provider when its callback was lost", async () => {
    const tenant = await createTenant(h);
    await sendCode(h, tenant, "lost@example.com");
    await verifyCode(h, tenant, "lost@example.com", codeFromMailbox(h, "lost@example.com"));
    const [record] = await h.database.db
      .select()
      .from(kycRecords)
      .where(eq(kycRecords.integrationId, tenant.integrationId));
    if (!record?.providerCustomerId || !h.kyc) throw new Error("no provider customer");
    const decided = await fetch(`${h.kyc.url}/customers/${record.providerCustomerId}/decision`, {
      method: "POST",
      headers: { authorization: `Bearer ${h.kyc.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ status: "approved" }),
    });
    expect(decided.status).toBeLessThan(300);
    // The provider decided, but say its callback never arrived: the record still reads pending.
    await h.database.db
      .update(kycRecords)
      .set({ status: "pending", updatedAt: h.clock.now() })
      .where(eq(kycRecords.id, record.id));
    expect((await kycOf(h, tenant)).status).toBe("pending"); // asked again within the minute: stored status
    h.clock.advance(61_000);
    expect(await kycOf(h, tenant)).toEqual({ status: "approved" });
  });

  it("serves no key-less miniapp routes", async () => {
    for (const path of ["/kyc/otp/send", "/kyc/otp/verify"]) {
      const response = await identityRequest(h, "miniapp", path, { body: {} });
      expect(response.status, path).toBe(404);
      expect((await errorOf(response)).code).toBe("NOT_FOUND");
    }
    expect((await identityRequest(h, "miniapp", `/kyc?userAddress=${USER}`)).status).toBe(404);
  });
});
