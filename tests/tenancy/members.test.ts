import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { organizationMembers } from "../../schema";
import { createHarness, type Harness, TEST_ADMIN_TOKEN } from "../harness/app";
import { errorOf } from "../harness/bodies";
import { adminRequest, createTenant, type Tenant } from "../harness/tenants";

interface Member {
  id: string;
  organizationId: string;
  email: string;
  createdAt: string;
  revokedAt: string | null;
}

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
  expect(response.status).toBe(200);
  return ((await response.json()) as { members: Member[] }).members;
}

describe("organization members", () => {
  let tenant: Tenant;
  beforeAll(async () => {
    tenant = await createTenant(h, "Members");
  });

  it("adds a member by email, stored lower-cased, with an mbr id", async () => {
    const response = await addMember(tenant.organizationId, "Ana.Maria@Example.COM");
    expect(response.status).toBe(201);
    const { member } = (await response.json()) as { member: Member };
    expect(member).toEqual({
      id: expect.stringMatching(/^mbr_[0-9A-Z]{26}$/),
      organizationId: tenant.organizationId,
      email: "ana.maria@example.com",
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
    const first = await addMember(tenant.organizationId, "dup@example.com");
    expect(first.status).toBe(201);
    const { member } = (await first.json()) as { member: Member };
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
      await Promise.all(responses.map(async (r) => ((await r.json()) as { member: Member }).member.id)),
    );
    expect(ids.size).toBe(1);
  });

  it("keeps the same email apart in two organizations", async () => {
    const other = await createTenant(h, "Other members");
    const mine = await addMember(tenant.organizationId, "shared@example.com");
    const theirs = await addMember(other.organizationId, "shared@example.com");
    expect([mine.status, theirs.status]).toEqual([201, 201]);
    const ids = [
      ((await mine.json()) as { member: Member }).member,
      ((await theirs.json()) as { member: Member }).member,
    ];
    expect(ids[0]?.id).not.toBe(ids[1]?.id);
    expect((await listMembers(other.organizationId)).map((m) => m.email)).toEqual(["shared@example.com"]);
  });

  it("lists an organization's members oldest first, and only its own", async () => {
    const fresh = await createTenant(h, "Listed");
    expect(await listMembers(fresh.organizationId)).toEqual([]);
    const added: Member[] = [];
    for (const email of ["c@example.com", "a@example.com", "b@example.com"]) {
      h.clock.advance(1);
      added.push(
        ((await (await addMember(fresh.organizationId, email)).json()) as { member: Member }).member,
      );
    }
    await addMember(tenant.organizationId, "not-listed@example.com");
    expect(await listMembers(fresh.organizationId)).toEqual(added);
  });

  it("revokes a member: listed with revokedAt, harmless to repeat, and the email may be added again", async () => {
    const fresh = await createTenant(h, "Revoking");
    const { member } = (await (await addMember(fresh.organizationId, "gone@example.com")).json()) as {
      member: Member;
    };
    h.clock.advance(5_000);
    const revoked = await adminRequest(h, `${membersOf(fresh.organizationId)}/${member.id}`, {
      method: "DELETE",
    });
    expect(revoked.status).toBe(200);
    const body = (await revoked.json()) as { member: Member };
    expect(body.member).toEqual({ ...member, revokedAt: h.clock.now().toISOString() });

    h.clock.advance(5_000);
    const again = await adminRequest(h, `${membersOf(fresh.organizationId)}/${member.id}`, {
      method: "DELETE",
    });
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual(body);

    expect(await listMembers(fresh.organizationId)).toEqual([body.member]);

    const readded = await addMember(fresh.organizationId, "gone@example.com");
    expect(readded.status).toBe(201);
    const { member: second } = (await readded.json()) as { member: Member };
    expect(second.id).not.toBe(member.id);
    expect(second.revokedAt).toBeNull();
    expect((await listMembers(fresh.organizationId)).map((m) => [m.id, m.revokedAt === null])).toEqual([
      [member.id, false],
      [second.id, true],
    ]);
  });

  it("never writes a member's whole email to the log", async () => {
    const fresh = await createTenant(h, "Logged");
    const before = h.logLines.length;
    const { member } = (await (
      await addMember(fresh.organizationId, "secret.person@example.com")
    ).json()) as {
      member: Member;
    };
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
    for (const body of [{}, { email: "ana@example.com", role: "owner" }, { email: 7 }]) {
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
    const { member } = (await (await addMember(other.organizationId, "kept@example.com")).json()) as {
      member: Member;
    };
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
    const { member } = (await (await addMember(tenant.organizationId, "kept@example.com")).json()) as {
      member: Member;
    };
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
        expect(typeof ((await response.json()) as { error: unknown }).error, what).toBe("string");
      }
    }
    expect(await listMembers(tenant.organizationId)).toEqual([member]);
  });
});
