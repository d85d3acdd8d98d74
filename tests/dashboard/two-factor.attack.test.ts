import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INVITATIONS_PER_HOUR } from "../../lib/dashboard/invite";
import { dashboardSessions, organizationMembers, organizations } from "../../schema";
import type { Harness } from "../harness/app";
import {
  addMember,
  DashboardClient,
  freshEmail,
  signedInClient,
  twoOrganizations,
} from "../harness/dashboard";
import { createTenant, type Tenant } from "../harness/tenants";
import { appCode, emailStep, enroll, pageErrorCode, wrongCodes } from "../harness/two-factor";

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

/** An organization requiring two-factor, with an owner who uses it (signed in). */
async function requiringOrganization(name: string) {
  const org = await createTenant(h, name);
  const email = freshEmail("req-owner");
  await addMember(h, org.organizationId, email, "owner");
  const owner = await signedInClient(h, email);
  await enroll(h, owner);
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
    const owner = await emailStep(h, email);
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
    const secret = (await enroll(h, client)).secret;
    h.clock.advance(30_000);
    await client.page("/dashboard/security");
    const answers: string[] = [];
    for (const code of wrongCodes(h, secret, 5)) {
      const response = await client.post("/dashboard/security/recovery-codes", { code });
      answers.push(`${response.status} ${pageErrorCode(await response.text())}`);
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
    const admin = await emailStep(h, email);
    await enroll(h, admin);
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
    const secret = (await enroll(h, member)).secret;

    const other = await emailStep(h, email);
    const firstStep = other.cookies.get("copm_dashboard_session");
    await other.page("/dashboard/sign-in/two-factor");
    h.clock.advance(30_000);
    expect((await other.post("/dashboard/sign-in/two-factor", { code: appCode(h, secret) })).status).toBe(
      303,
    );
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
      (await member.post("/dashboard/security/two-factor/disable", { code: appCode(h, secret) })).status,
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
    expect(pageErrorCode(await refused.text())).toBe("RATE_LIMITED");
    h.clock.advance(60 * 60_000);
    await owner.page("/dashboard/members");
    expect((await owner.post("/dashboard/members", { email: freshEmail("f6"), role: "viewer" })).status).toBe(
      200,
    );
  });
});
