import { eq } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INVITATIONS_PER_HOUR } from "../../lib/dashboard/invite";
import { dashboardSessions, organizationMembers, organizations } from "../../schema";
import type { Harness } from "../harness/app";
import {
  addMember,
  DashboardClient,
  freshEmail,
  mailedCode,
  signedInClient,
  twoOrganizations,
} from "../harness/dashboard";
import { createTenant, type Tenant } from "../harness/tenants";

/**
 * The attack on roles and two-factor sign-in (issue 37, its own review): each finding failed before
 * its fix. F1 an owner who never set up two-factor lifted the organization's requirement from the
 * enrolment page; F2 codes on "new recovery codes" and "turn off" were never counted; F3 an admin
 * reset their own two-factor without a code; F4 sessions verified with the old factor outlived a
 * new one; F5 the cookie was not replaced when the second factor was given; F6 invitations had no
 * limit of their own.
 */

let h: Harness;
let acme: Tenant;

function appCode(secret: string, offsetSteps = 0): string {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30 });
  return totp.generate({ timestamp: h.clock.now().getTime() + offsetSteps * 30_000 });
}

function wrongCodes(secret: string, count: number): string[] {
  const near = new Set([-1, 0, 1].map((step) => appCode(secret, step)));
  const codes: string[] = [];
  for (let n = 100_000; codes.length < count; n += 7919) if (!near.has(String(n))) codes.push(String(n));
  return codes;
}

function errorCode(html: string): string | undefined {
  return html.match(/data-code="([A-Z_]+)"/)?.[1];
}

async function emailStep(email: string): Promise<DashboardClient> {
  const client = new DashboardClient(h);
  await client.page("/dashboard/sign-in");
  await client.post("/dashboard/sign-in", { email });
  const verified = await client.post("/dashboard/sign-in/code", { email, code: await mailedCode(h, email) });
  expect(verified.status).toBe(303);
  return client;
}

async function enroll(client: DashboardClient): Promise<string> {
  await client.page("/dashboard/security");
  const html = await (await client.post("/dashboard/security/two-factor/start", {})).text();
  const secret = html.match(/id="two-factor-secret">([A-Z2-7]+)</)?.[1] ?? "";
  const confirmed = await client.post("/dashboard/security/two-factor/confirm", { code: appCode(secret) });
  expect(confirmed.status).toBe(200);
  return secret;
}

/** An organization requiring two-factor, with an owner who uses it (signed in). */
async function requiringOrganization(name: string) {
  const org = await createTenant(h, name);
  const email = freshEmail("req-owner");
  await addMember(h, org.organizationId, email, "owner");
  const owner = await signedInClient(h, email);
  await enroll(owner);
  await owner.page("/dashboard/security");
  expect((await owner.post("/dashboard/security/requirement", { required: "on" })).status).toBe(303);
  return org;
}

beforeAll(async () => {
  ({ h, acme } = await twoOrganizations());
}, 60_000);

afterAll(async () => {
  await h?.close();
});

describe("the attack on two-factor sign-in", () => {
  it("F1: an owner who has not set up two-factor cannot lift the requirement, from the enrolment page or any other", async () => {
    const org = await requiringOrganization("F1");
    const email = freshEmail("f1-owner");
    await addMember(h, org.organizationId, email, "owner");
    const owner = await emailStep(email);
    await owner.page("/dashboard/security");
    const lifted = await owner.post("/dashboard/security/requirement", { required: "off" });
    // The enrolment stage reaches only the security page and the set-up: the POST goes back there.
    expect(lifted.status).toBe(303);
    expect(lifted.headers.get("location")).toBe("/dashboard/security");
    const [row] = await h.database.db
      .select({ required: organizations.requireTwoFactor })
      .from(organizations)
      .where(eq(organizations.id, org.organizationId));
    expect(row?.required).toBe(true);
    expect((await owner.get("/dashboard/keys")).headers.get("location")).toBe("/dashboard/security");
  });

  it("F2: wrong codes on new recovery codes are counted; the fifth ends the session", async () => {
    const email = freshEmail("f2");
    const memberId = await addMember(h, acme.organizationId, email, "developer");
    const client = await signedInClient(h, email);
    const secret = await enroll(client);
    h.clock.advance(30_000);
    await client.page("/dashboard/security");
    const answers: string[] = [];
    for (const code of wrongCodes(secret, 5)) {
      const response = await client.post("/dashboard/security/recovery-codes", { code });
      answers.push(`${response.status} ${errorCode(await response.text())}`);
    }
    expect(answers).toEqual([...Array(4).fill("400 TWO_FACTOR_CODE_INVALID"), "429 OTP_LOCKED"]);
    const sessions = await h.database.db
      .select({ failures: dashboardSessions.twoFactorFailures, revokedAt: dashboardSessions.revokedAt })
      .from(dashboardSessions)
      .where(eq(dashboardSessions.memberId, memberId));
    expect(sessions.filter((s) => s.failures === 5 && s.revokedAt !== null)).toHaveLength(1);
    expect((await client.get("/dashboard")).headers.get("location")).toBe("/dashboard/sign-in?ended=1");
  });

  it("F3: an admin cannot reset their own two-factor from the members page", async () => {
    const org = await requiringOrganization("F3");
    const email = freshEmail("f3-admin");
    const adminId = await addMember(h, org.organizationId, email, "admin");
    const admin = await emailStep(email);
    await enroll(admin);
    const page = await admin.page("/dashboard/members");
    expect(page).not.toContain(`/dashboard/members/${adminId}/reset-two-factor`);
    const reset = await admin.post(`/dashboard/members/${adminId}/reset-two-factor`, {});
    expect(reset.status).toBe(403);
    const [row] = await h.database.db
      .select({ at: organizationMembers.totpEnabledAt })
      .from(organizationMembers)
      .where(eq(organizationMembers.id, adminId));
    expect(row?.at).not.toBeNull();
  });

  it("F4 and F5: giving the second factor replaces the cookie; a new factor ends the sessions of the old one", async () => {
    const email = freshEmail("f45");
    await addMember(h, acme.organizationId, email, "developer");
    const member = await signedInClient(h, email);
    const secret = await enroll(member);

    const other = await emailStep(email);
    const firstStep = other.cookies.get("copm_dashboard_session");
    await other.page("/dashboard/sign-in/two-factor");
    h.clock.advance(30_000);
    expect((await other.post("/dashboard/sign-in/two-factor", { code: appCode(secret) })).status).toBe(303);
    expect(other.cookies.get("copm_dashboard_session")).not.toBe(firstStep);
    // The first step's cookie opens nothing now.
    const planted = new DashboardClient(h);
    planted.cookies.set("copm_dashboard_session", firstStep ?? "");
    expect((await planted.get("/dashboard/keys")).headers.get("location")).toBe("/dashboard/sign-in?ended=1");
    expect((await other.get("/dashboard/keys")).status).toBe(200);

    // The member turns it off and sets up a new secret: the other session ends.
    h.clock.advance(30_000);
    await member.page("/dashboard/security");
    expect(
      (await member.post("/dashboard/security/two-factor/disable", { code: appCode(secret) })).status,
    ).toBe(303);
    expect((await other.get("/dashboard/keys")).headers.get("location")).toBe("/dashboard/sign-in?ended=1");
    expect((await member.get("/dashboard/keys")).status).toBe(200);
  });

  it(`F6: a member invites at most ${INVITATIONS_PER_HOUR} people an hour for the organization`, async () => {
    const org = await createTenant(h, "F6");
    const email = freshEmail("f6-owner");
    await addMember(h, org.organizationId, email, "owner");
    const owner = await signedInClient(h, email);
    await owner.page("/dashboard/members");
    for (let i = 0; i < INVITATIONS_PER_HOUR; i++) {
      expect(
        (await owner.post("/dashboard/members", { email: freshEmail("f6"), role: "viewer" })).status,
      ).toBe(200);
    }
    const refused = await owner.post("/dashboard/members", { email: freshEmail("f6"), role: "viewer" });
    expect(refused.status).toBe(429);
    expect(errorCode(await refused.text())).toBe("RATE_LIMITED");
    h.clock.advance(60 * 60_000);
    await owner.page("/dashboard/members");
    expect((await owner.post("/dashboard/members", { email: freshEmail("f6"), role: "viewer" })).status).toBe(
      200,
    );
  });
});
