import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { route as listAuditLog } from "../../functions/audit/list-audit-log";
import { route as getOrganizationRoute } from "../../functions/tenancy/admin-get-organization";
import { route as resetRoute } from "../../functions/tenancy/admin-reset-member-two-factor";
import { organizationMembers } from "../../schema";
import type { Harness } from "../harness/app";
import { bodyOf } from "../harness/bodies";
import { addMember, freshEmail, signedInClient, twoOrganizations } from "../harness/dashboard";
import { partnerRequest } from "../harness/settlement";
import { adminRequest, type Tenant } from "../harness/tenants";
import { appCode, emailStep, enroll, pageErrorCode, wrongCodes } from "../harness/two-factor";

/**
 * Two-factor sign-in (issue 37): TOTP (RFC 6238) set up from the security page with ten recovery
 * codes; the sign-in's second step after the emailed code; replayed and wrong codes refused and
 * counted; the organization's requirement; resets by an admin or the operator; all audited.
 */

let h: Harness;
let acme: Tenant;

async function auditActions(tenant: Tenant, memberId: string): Promise<string[]> {
  const log = await bodyOf(
    await partnerRequest(h, tenant, "/api/integrations/audit-log?limit=200"),
    listAuditLog,
    200,
  );
  return log.data.filter((e) => e.target.id === memberId).map((e) => e.action);
}

beforeAll(async () => {
  ({ h, acme } = await twoOrganizations());
}, 60_000);

afterAll(async () => {
  await h?.close();
});

describe("setting up an authenticator app", () => {
  it("shows a secret and QR code, refuses a wrong code, and turns on with a right one, showing ten recovery codes once", async () => {
    const email = freshEmail("enrol");
    const memberId = await addMember(h, acme.organizationId, email, "developer");
    const client = await signedInClient(h, email);
    expect(await client.page("/dashboard/security")).toContain(
      'id="two-factor-status">El inicio de sesión en dos pasos no está activo.',
    );
    const started = await (await client.post("/dashboard/security/two-factor/start", {})).text();
    const secret = started.match(/id="two-factor-secret">([A-Z2-7]+)</)?.[1] ?? "";
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(started).toMatch(/<img id="two-factor-qr" src="data:image\/svg\+xml;base64,/);

    const wrong = await client.post("/dashboard/security/two-factor/confirm", {
      code: wrongCodes(h, secret, 1)[0] ?? "",
    });
    expect(wrong.status).toBe(400);
    const wrongHtml = await wrong.text();
    expect(pageErrorCode(wrongHtml)).toBe("TWO_FACTOR_CODE_INVALID");
    // The same enrolment is shown again, to type the right code.
    expect(wrongHtml).toContain(`id="two-factor-secret">${secret}<`);

    const confirmed = await client.post("/dashboard/security/two-factor/confirm", {
      code: appCode(h, secret),
    });
    expect(confirmed.status).toBe(200);
    const codes = ((await confirmed.text()).match(/id="recovery-codes">([^<]+)</)?.[1] ?? "").split("\n");
    expect(codes).toHaveLength(10);
    for (const code of codes) expect(code).toMatch(/^[0-9a-z]{5}-[0-9a-z]{5}$/);
    expect(new Set(codes).size).toBe(10);
    // The session that set it up goes on; the page now says it is on and never shows the codes again.
    const after = await client.page("/dashboard/security");
    expect(after).toContain("El inicio de sesión en dos pasos está activo.");
    expect(after).not.toContain(codes[0] ?? "none");

    const [row] = await h.database.db
      .select()
      .from(organizationMembers)
      .where(eq(organizationMembers.id, memberId));
    expect(row?.totpEnabledAt).not.toBeNull();
    expect(row?.totpSecret).toMatch(/^v1\./);
    expect(row?.totpSecret).not.toContain(secret);
    expect(await auditActions(acme, memberId)).toContain("member.two_factor_enabled");
  });
});

describe("signing in with a second factor", () => {
  let email: string;
  let memberId: string;
  let secret: string;
  let recoveryCodes: string[];

  beforeAll(async () => {
    email = freshEmail("second");
    memberId = await addMember(h, acme.organizationId, email, "developer");
    ({ secret, recoveryCodes } = await enroll(h, await signedInClient(h, email)));
  });

  it("asks for the app's code after the emailed one and opens nothing before it", async () => {
    const client = await emailStep(h, email);
    for (const path of ["/dashboard", "/dashboard/keys", "/dashboard/security", "/dashboard/orders"]) {
      const response = await client.get(path);
      expect(response.status, path).toBe(303);
      expect(response.headers.get("location")).toBe("/dashboard/sign-in/two-factor");
    }
    const page = await client.page("/dashboard/sign-in/two-factor");
    expect(page).not.toContain('<nav class="sections"');
    // Still the step the enrolment used: a code opens one sign-in, never two.
    const replayed = await client.post("/dashboard/sign-in/two-factor", { code: appCode(h, secret) });
    expect(replayed.status).toBe(400);
    expect(pageErrorCode(await replayed.text())).toBe("TWO_FACTOR_CODE_INVALID");
    h.clock.advance(30_000);
    const given = await client.post("/dashboard/sign-in/two-factor", { code: appCode(h, secret) });
    expect(given.status).toBe(303);
    expect(given.headers.get("location")).toBe("/dashboard");
    expect((await client.get("/dashboard/keys")).status).toBe(200);
  });

  it("takes a recovery code once, saying how many are left", async () => {
    const client = await emailStep(h, email);
    await client.page("/dashboard/sign-in/two-factor");
    const used = await client.post("/dashboard/sign-in/two-factor", {
      code: (recoveryCodes[0] ?? "").toUpperCase(),
    });
    expect(used.status).toBe(303);
    expect(used.headers.get("location")).toBe("/dashboard/security?recovery=9");
    expect(await client.page("/dashboard/security?recovery=9")).toContain("te quedan 9");
    expect((await client.get("/dashboard")).status).toBe(200);

    const again = await emailStep(h, email);
    await again.page("/dashboard/sign-in/two-factor");
    const reused = await again.post("/dashboard/sign-in/two-factor", { code: recoveryCodes[0] ?? "" });
    expect(reused.status).toBe(400);
    expect(await auditActions(acme, memberId)).toContain("member.recovery_code_used");
  });

  it("ends the session after five wrong codes, and locks second factors after ten in a day", async () => {
    // The wrong codes of the tests above fall out of the day counted.
    h.clock.advance(24 * 60 * 60_000 + 1);
    for (let session = 0; session < 2; session++) {
      const client = await emailStep(h, email);
      await client.page("/dashboard/sign-in/two-factor");
      for (let attempt = 1; attempt <= 5; attempt++) {
        const response = await client.post("/dashboard/sign-in/two-factor", {
          code: wrongCodes(h, secret, 1)[0] ?? "",
        });
        const html = await response.text();
        if (attempt < 5) {
          expect(pageErrorCode(html)).toBe("TWO_FACTOR_CODE_INVALID");
          expect(html).toContain(`Intentos restantes: ${5 - attempt}.`);
        } else {
          expect(pageErrorCode(html)).toBe("OTP_LOCKED");
        }
      }
      const after = await client.get("/dashboard");
      expect(after.headers.get("location")).toMatch(/^\/dashboard\/sign-in/);
    }
    h.clock.advance(30_000);
    const locked = await emailStep(h, email);
    await locked.page("/dashboard/sign-in/two-factor");
    const right = await locked.post("/dashboard/sign-in/two-factor", { code: appCode(h, secret) });
    expect(right.status).toBe(429);
    expect(pageErrorCode(await right.text())).toBe("OTP_LOCKED");
    // A day later the member signs in again.
    h.clock.advance(24 * 60 * 60_000);
    const later = await emailStep(h, email);
    await later.page("/dashboard/sign-in/two-factor");
    expect((await later.post("/dashboard/sign-in/two-factor", { code: appCode(h, secret) })).status).toBe(
      303,
    );
  });
});

describe("the organization's requirement, resets and turning it off", () => {
  it("lets only an owner who uses two-factor require it; then a member without it reaches only the security page", async () => {
    const ownerEmail = freshEmail("req-owner");
    const ownerId = await addMember(h, acme.organizationId, ownerEmail, "owner");
    const owner = await signedInClient(h, ownerEmail);
    const devEmail = freshEmail("req-dev");
    const devId = await addMember(h, acme.organizationId, devEmail, "developer");
    const developer = await signedInClient(h, devEmail);

    await owner.page("/dashboard/security");
    const early = await owner.post("/dashboard/security/requirement", { required: "on" });
    expect(early.status).toBe(409);
    expect(pageErrorCode(await early.text())).toBe("TWO_FACTOR_REQUIRED");
    const ownerSecret = (await enroll(h, owner)).secret;
    await owner.page("/dashboard/security");
    expect((await owner.post("/dashboard/security/requirement", { required: "on" })).status).toBe(303);
    const org = await bodyOf(
      await adminRequest(h, `/admin/organizations/${acme.organizationId}`),
      getOrganizationRoute,
      200,
    );
    expect(org.organization.requireTwoFactor).toBe(true);

    // A developer cannot change the requirement: it is the owner's.
    await developer.page("/dashboard/security");
    for (const path of ["/dashboard", "/dashboard/orders", "/dashboard/keys"]) {
      const response = await developer.get(path);
      expect(response.headers.get("location"), path).toBe("/dashboard/security");
    }
    const securityPage = await developer.page("/dashboard/security");
    expect(securityPage).toContain("Tu organización exige el inicio de sesión en dos pasos");
    expect(securityPage).not.toContain('<nav class="sections"');
    const devSecret = (await enroll(h, developer)).secret;
    expect((await developer.get("/dashboard/orders")).status).toBe(200);

    // Required: turning it off is refused; the developer's code is good and still refused.
    await developer.page("/dashboard/security");
    h.clock.advance(30_000);
    const off = await developer.post("/dashboard/security/two-factor/disable", {
      code: appCode(h, devSecret),
    });
    expect(off.status).toBe(409);
    expect(pageErrorCode(await off.text())).toBe("TWO_FACTOR_REQUIRED");

    // The owner lifts the requirement; then the developer turns it off with a fresh code.
    await owner.page("/dashboard/security");
    expect((await owner.post("/dashboard/security/requirement", { required: "off" })).status).toBe(303);
    h.clock.advance(30_000);
    await developer.page("/dashboard/security");
    const offNow = await developer.post("/dashboard/security/two-factor/disable", {
      code: appCode(h, devSecret),
    });
    expect(offNow.status).toBe(303);
    expect(await developer.page("/dashboard/security")).toContain("no está activo");
    expect(await auditActions(acme, devId)).toEqual(
      expect.arrayContaining(["member.two_factor_enabled", "member.two_factor_disabled"]),
    );
    expect(ownerSecret).toMatch(/^[A-Z2-7]+$/);
    expect(ownerId).toMatch(/^mbr_/);
  });

  it("lets an admin reset a developer's two-factor (ending their sessions) but not an owner's; the operator resets anyone", async () => {
    const adminEmail = freshEmail("reset-admin");
    await addMember(h, acme.organizationId, adminEmail, "admin");
    const admin = await signedInClient(h, adminEmail);
    const devEmail = freshEmail("reset-dev");
    const devId = await addMember(h, acme.organizationId, devEmail, "developer");
    const developer = await signedInClient(h, devEmail);
    await enroll(h, developer);
    const ownerEmail = freshEmail("reset-owner");
    const ownerId = await addMember(h, acme.organizationId, ownerEmail, "owner");
    await enroll(h, await signedInClient(h, ownerEmail));

    await admin.page("/dashboard/members");
    expect((await admin.post(`/dashboard/members/${ownerId}/reset-two-factor`, {})).status).toBe(403);
    const reset = await admin.post(`/dashboard/members/${devId}/reset-two-factor`, {});
    expect(reset.status).toBe(303);
    const ended = await developer.get("/dashboard");
    expect(ended.headers.get("location")).toBe("/dashboard/sign-in?ended=1");
    expect(await auditActions(acme, devId)).toContain("member.two_factor_reset");
    // Signing in again needs only the email: two-factor is off.
    expect((await signedInClient(h, devEmail)).csrf).not.toBe("");

    const byOperator = await adminRequest(
      h,
      `/admin/organizations/${acme.organizationId}/members/${ownerId}/two-factor`,
      {
        method: "DELETE",
      },
    );
    expect((await bodyOf(byOperator, resetRoute, 200)).member).toMatchObject({
      id: ownerId,
      twoFactorEnabled: false,
    });
  });

  it("answers a new set of recovery codes for a current code, and the old set opens nothing", async () => {
    const email = freshEmail("regen");
    await addMember(h, acme.organizationId, email, "viewer");
    const client = await signedInClient(h, email);
    const { secret, recoveryCodes } = await enroll(h, client);
    h.clock.advance(30_000);
    await client.page("/dashboard/security");
    const regenerated = await client.post("/dashboard/security/recovery-codes", { code: appCode(h, secret) });
    expect(regenerated.status).toBe(200);
    const fresh = ((await regenerated.text()).match(/id="recovery-codes">([^<]+)</)?.[1] ?? "").split("\n");
    expect(fresh).toHaveLength(10);
    const old = await emailStep(h, email);
    await old.page("/dashboard/sign-in/two-factor");
    expect((await old.post("/dashboard/sign-in/two-factor", { code: recoveryCodes[1] ?? "" })).status).toBe(
      400,
    );
    expect((await old.post("/dashboard/sign-in/two-factor", { code: fresh[1] ?? "" })).status).toBe(303);
  });
});
