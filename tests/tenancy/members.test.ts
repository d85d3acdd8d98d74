import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { route as addMemberRoute } from "../../functions/tenancy/admin-add-member";
import {
  type AdminListOrganizationMembersResponse,
  route as listMembersRoute,
} from "../../functions/tenancy/admin-list-members";
import { route as revokeMemberRoute } from "../../functions/tenancy/admin-revoke-member";
import { organizationMembers } from "../../schema";
import { createHarness, type Harness, TEST_ADMIN_TOKEN } from "../harness/app";
import { bodyOf, errorOf } from "../harness/bodies";
import { adminRequest, createTenant, type Tenant } from "../harness/tenants";

type Member = AdminListOrganizationMembersResponse["members"][number];

const UNKNOWN_ORGANIZATION = "org_00000000000000000000000000";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

const membersOf = (organizationId: string) => `/admin/organizations/${organizationId}/members`;

function addMember(organizationId: string, email: string) {
  return adminRequest(h, membersOf(organizationId), { method: "POST", body: { email } });
}

async function listMembers(organizationId: string): Promise<Member[]> {
  const response = await adminRequest(h, membersOf(organizationId));
  return (await bodyOf(response, listMembersRoute, 200)).members;
}

/** The member an add answered with `status` (201 added, 200 already a member). */
async function memberOf(response: Response, status: 200 | 201 = 201): Promise<Member> {
  return (await bodyOf(response, addMemberRoute, status)).member;
}

describe("organization members", () => {
  let tenant: Tenant;
  beforeAll(async () => {
    tenant = await createTenant(h, "Members");
  });

  it("adds a member by email, stored lower-cased, with an mbr id", async () => {
    const response = await addMember(tenant.organizationId, "Ana.Maria@Example.COM");
    const raw: unknown = await response.clone().json();
    const member = await memberOf(response);
    // The body is the member and nothing more: read as sent, it equals what its schema keeps.
    expect(raw).toEqual({ member });
    expect(member).toEqual({
      id: expect.stringMatching(/^mbr_[0-9A-Z]{26}$/),
      organizationId: tenant.organizationId,
      email: "ana.maria@example.com",
      role: "owner",
      twoFactorEnabled: false,
      createdAt: h.clock.now().toISOString(),
      revokedAt: null,
    });
    const [stored] = await h.database.db
      .select()
      .from(organizationMembers)
      .where(eq(organizationMembers.id, member.id));
    expect(stored?.email).toBe("ana.maria@example.com");
  });

  it("answers the same email again, in any case, with the existing member and 200, adding no row", async () => {
    const member = await memberOf(await addMember(tenant.organizationId, "dup@example.com"));
    h.clock.advance(60_000);
    for (const email of ["dup@example.com", "DUP@Example.com"]) {
      const again = await addMember(tenant.organizationId, email);
      expect(again.status, email).toBe(200);
      expect(await again.json(), email).toEqual({ member });
    }
    const rows = await h.database.db
      .select()
      .from(organizationMembers)
      .where(eq(organizationMembers.email, "dup@example.com"));
    expect(rows).toHaveLength(1);
  });

  it("adds the same email concurrently as one member", async () => {
    const responses = await Promise.all(
      Array.from({ length: 5 }, () => addMember(tenant.organizationId, "race@example.com")),
    );
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([200, 200, 200, 200, 201]);
    const ids = new Set(
      await Promise.all(responses.map(async (r) => (await memberOf(r, r.status === 201 ? 201 : 200)).id)),
    );
    expect(ids.size).toBe(1);
  });

  it("keeps the same email apart in two organizations", async () => {
    const other = await createTenant(h, "Other members");
    const mine = await addMember(tenant.organizationId, "shared@example.com");
    const theirs = await addMember(other.organizationId, "shared@example.com");
    const ids = [await memberOf(mine), await memberOf(theirs)];
    expect(ids[0]?.id).not.toBe(ids[1]?.id);
    expect((await listMembers(other.organizationId)).map((m) => m.email)).toEqual(["shared@example.com"]);
  });

  it("lists an organization's members oldest first, and only its own", async () => {
    const fresh = await createTenant(h, "Listed");
    expect(await listMembers(fresh.organizationId)).toEqual([]);
    const added: Member[] = [];
    for (const email of ["c@example.com", "a@example.com", "b@example.com"]) {
      h.clock.advance(1);
      added.push(await memberOf(await addMember(fresh.organizationId, email)));
    }
    await addMember(tenant.organizationId, "not-listed@example.com");
    expect(await listMembers(fresh.organizationId)).toEqual(added);
  });

  it("revokes a member: listed with revokedAt, harmless to repeat, and the email may be added again", async () => {
    const fresh = await createTenant(h, "Revoking");
    // An owner stays: the last owner cannot be revoked (roles.test.ts).
    await addMember(fresh.organizationId, "stays@example.com");
    const member = await memberOf(await addMember(fresh.organizationId, "gone@example.com"));
    h.clock.advance(5_000);
    const revoked = await adminRequest(h, `${membersOf(fresh.organizationId)}/${member.id}`, {
      method: "DELETE",
    });
    const raw: unknown = await revoked.clone().json();
    const body = await bodyOf(revoked, revokeMemberRoute, 200);
    expect(raw).toEqual(body);
    expect(body.member).toEqual({ ...member, revokedAt: h.clock.now().toISOString() });

    h.clock.advance(5_000);
    const again = await adminRequest(h, `${membersOf(fresh.organizationId)}/${member.id}`, {
      method: "DELETE",
    });
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual(body);

    expect((await listMembers(fresh.organizationId)).slice(1)).toEqual([body.member]);

    const second = await memberOf(await addMember(fresh.organizationId, "gone@example.com"));
    expect(second.id).not.toBe(member.id);
    expect(second.revokedAt).toBeNull();
    expect(
      (await listMembers(fresh.organizationId)).slice(1).map((m) => [m.id, m.revokedAt === null]),
    ).toEqual([
      [member.id, false],
      [second.id, true],
    ]);
  });

  it("never writes a member's whole email to the log", async () => {
    const fresh = await createTenant(h, "Logged");
    const before = h.logLines.length;
    const member = await memberOf(await addMember(fresh.organizationId, "secret.person@example.com"));
    await addMember(fresh.organizationId, "secret.person@example.com");
    await adminRequest(h, `${membersOf(fresh.organizationId)}/${member.id}`, { method: "DELETE" });
    const lines = h.logLines.slice(before);
    expect(lines).toContainEqual(
      expect.objectContaining({ msg: "organization member added", email: "s***@example.com" }),
    );
    expect(JSON.stringify(lines)).not.toContain("secret.person");
  });
});

describe("organization members: errors", () => {
  let tenant: Tenant;
  beforeAll(async () => {
    tenant = await createTenant(h, "Member errors");
  });

  it.each([
    ["no at sign", "ana.example.com"],
    ["two at signs", "ana@@example.com"],
    ["no top-level domain", "ana@example"],
    ["a space", "ana maria@example.com"],
    ["an empty string", ""],
    ["a dot before the at sign", "ana.@example.com"],
  ])("refuses an email with %s with 400 INVALID_EMAIL and adds nothing", async (_, email) => {
    const response = await addMember(tenant.organizationId, email);
    expect(response.status).toBe(400);
    const { body } = await errorOf(response);
    expect(body.error.code).toBe("INVALID_EMAIL");
    expect(body.error.problems).toEqual([
      expect.objectContaining({ field: "body.email", code: "INVALID_EMAIL" }),
    ]);
    expect(await listMembers(tenant.organizationId)).toEqual([]);
  });

  it("refuses a missing email and unknown fields with 400 INVALID_REQUEST", async () => {
    for (const body of [
      {},
      { email: "ana@example.com", admin: true },
      { email: "ana@example.com", role: "boss" },
      { email: 7 },
    ]) {
      const response = await adminRequest(h, membersOf(tenant.organizationId), { method: "POST", body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect((await errorOf(response)).code).toBe("INVALID_REQUEST");
    }
    expect(await listMembers(tenant.organizationId)).toEqual([]);
  });

  it("answers 404 ORGANIZATION_NOT_FOUND for an unknown organization, to add, list and revoke", async () => {
    const responses = [
      await addMember(UNKNOWN_ORGANIZATION, "ana@example.com"),
      await adminRequest(h, membersOf(UNKNOWN_ORGANIZATION)),
      await adminRequest(h, `${membersOf(UNKNOWN_ORGANIZATION)}/mbr_00000000000000000000000000`, {
        method: "DELETE",
      }),
    ];
    for (const response of responses) {
      expect(response.status).toBe(404);
      expect((await errorOf(response)).code).toBe("ORGANIZATION_NOT_FOUND");
    }
  });

  it("answers 404 NOT_FOUND for an unknown member and for another organization's, and revokes nothing", async () => {
    const other = await createTenant(h, "Member owner");
    const member = await memberOf(await addMember(other.organizationId, "kept@example.com"));
    for (const memberId of ["mbr_00000000000000000000000000", "nope", member.id]) {
      const response = await adminRequest(h, `${membersOf(tenant.organizationId)}/${memberId}`, {
        method: "DELETE",
      });
      expect(response.status, memberId).toBe(404);
      const { body } = await errorOf(response);
      expect(body.error.code).toBe("NOT_FOUND");
    }
    expect(await listMembers(other.organizationId)).toEqual([member]);
  });
});

describe("organization members: security", () => {
  it("answers 401 and does nothing for every credential but the admin token", async () => {
    const tenant = await createTenant(h, "Member security");
    const member = await memberOf(await addMember(tenant.organizationId, "kept@example.com"));
    const attempts: Array<[string, Record<string, string>]> = [
      ["no token", {}],
      ["the organization's own API key", { authorization: `Bearer ${tenant.apiKey}` }],
      [
        "the admin token with a character changed",
        { authorization: `Bearer ${TEST_ADMIN_TOKEN.slice(0, -1)}x` },
      ],
      ["the admin token as Basic auth", { authorization: `Basic ${TEST_ADMIN_TOKEN}` }],
    ];
    const requests: Array<[string, string, unknown]> = [
      ["POST", membersOf(tenant.organizationId), { email: "intruder@example.com" }],
      ["GET", membersOf(tenant.organizationId), undefined],
      ["DELETE", `${membersOf(tenant.organizationId)}/${member.id}`, undefined],
    ];
    for (const [what, headers] of attempts) {
      for (const [method, path, body] of requests) {
        const response = await h.app.request(path, {
          method,
          headers: { ...headers, "content-type": "application/json" },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        expect(response.status, `${what}: ${method}`).toBe(401);
        // A 401 is `{ error: string }`, not the error schema (the routes declare no type for it).
        const raw: unknown = await response.json();
        expect(raw, what).toMatchObject({ error: expect.any(String) });
      }
    }
    expect(await listMembers(tenant.organizationId)).toEqual([member]);
  });
});
