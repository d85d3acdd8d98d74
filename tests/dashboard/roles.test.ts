import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { route as listAuditLog } from "../../functions/audit/list-audit-log";
import { route as listMembersRoute } from "../../functions/tenancy/admin-list-members";
import { MEMBER_ROLES, mayManage, PERMISSION_TABLE, roleMay } from "../../lib/tenancy/roles";
import type { Harness } from "../harness/app";
import { bodyOf, errorOf } from "../harness/bodies";
import {
  addMember,
  type DashboardClient,
  freshEmail,
  signedInClient,
  twoOrganizations,
} from "../harness/dashboard";
import { partnerRequest } from "../harness/settlement";
import { adminRequest, type Tenant } from "../harness/tenants";
import { pageErrorCode } from "../harness/two-factor";

/**
 * Dashboard roles (issue 37): owner, admin, developer, viewer, with the matrix of lib/tenancy/roles.ts
 * enforced on every page and action; owners and admins invite by email; an admin never touches an
 * owner; the last owner is never removed or demoted (the race of two owners: members.concurrency.postgres).
 */

let h: Harness;
let acme: Tenant;
let other: Tenant;
const clients: Partial<Record<"owner" | "admin" | "developer" | "viewer", DashboardClient>> = {};
const ids: Record<string, string> = {};

function client(role: keyof typeof clients): DashboardClient {
  const found = clients[role];
  if (!found) throw new Error(`no ${role} signed in`);
  return found;
}

/** The section links of a page's navigation, by their paths. */
function navPaths(html: string): string[] {
  const nav = html.match(/<nav class="sections"[\s\S]*?<\/nav>/)?.[0] ?? "";
  return [...nav.matchAll(/<a href="\/dashboard([^"?]*)/g)].map((m) => m[1] ?? "");
}

async function members(tenant: Tenant) {
  const response = await adminRequest(h, `/admin/organizations/${tenant.organizationId}/members`);
  return (await bodyOf(response, listMembersRoute, 200)).members;
}

beforeAll(async () => {
  ({ h, acme, other } = await twoOrganizations());
  for (const role of MEMBER_ROLES) {
    const email = freshEmail(`roles-${role}`);
    ids[role] = await addMember(h, acme.organizationId, email, role);
    clients[role] = await signedInClient(h, email);
  }
}, 60_000);

afterAll(async () => {
  await h?.close();
});

describe("the role matrix", () => {
  it("gives owners everything, admins all but security, developers no statements, viewers nothing to change", () => {
    for (const permission of Object.keys(PERMISSION_TABLE) as (keyof typeof PERMISSION_TABLE)[]) {
      expect(roleMay("owner", permission)).toBe(true);
    }
    expect(roleMay("admin", "security:write")).toBe(false);
    expect(roleMay("admin", "members:write")).toBe(true);
    expect(roleMay("developer", "statements:read")).toBe(false);
    expect(roleMay("developer", "keys:write")).toBe(true);
    expect(roleMay("viewer", "statements:read")).toBe(true);
    expect(
      (Object.keys(PERMISSION_TABLE) as (keyof typeof PERMISSION_TABLE)[]).filter((p) =>
        roleMay("viewer", p),
      ),
    ).toEqual(["activity:read", "statements:read"]);
  });

  it("lets an admin manage everyone but owners, and grant every role but owner", () => {
    expect(mayManage("admin", "developer", "viewer")).toBe(true);
    expect(mayManage("admin", "developer", "owner")).toBe(false);
    expect(mayManage("admin", "owner", "admin")).toBe(false);
    expect(mayManage("admin", "owner")).toBe(false);
    expect(mayManage("owner", "owner", "viewer")).toBe(true);
    expect(mayManage("developer", "viewer", "viewer")).toBe(false);
  });
});

describe("what each role sees and may do", () => {
  it("shows each role only the sections it may open", async () => {
    const nav = async (role: keyof typeof clients) => navPaths(await client(role).page("/dashboard"));
    expect(await nav("owner")).toEqual(
      expect.arrayContaining(["/keys", "/statements", "/audit", "/members", "/security"]),
    );
    expect(await nav("viewer")).not.toContain("/keys");
    expect(await nav("viewer")).not.toContain("/members");
    expect(await nav("viewer")).toContain("/statements");
    expect(await nav("developer")).not.toContain("/statements");
    expect(await nav("developer")).toContain("/request-logs");
    expect(await nav("admin")).toContain("/members");
  });

  it("answers a page outside the role 403 INSUFFICIENT_ROLE, as a page", async () => {
    for (const [role, path] of [
      ["viewer", "/dashboard/keys"],
      ["viewer", "/dashboard/request-logs"],
      ["viewer", "/dashboard/members"],
      ["developer", "/dashboard/statements"],
      ["developer", "/dashboard/audit"],
      ["developer", "/dashboard/members"],
    ] as const) {
      const response = await client(role).get(path);
      expect(response.status, `${role} ${path}`).toBe(403);
      expect(response.headers.get("content-type")).toContain("text/html");
      expect(pageErrorCode(await response.text())).toBe("INSUFFICIENT_ROLE");
    }
    expect((await client("viewer").get("/dashboard/orders")).status).toBe(200);
    expect((await client("viewer").get("/dashboard/statements")).status).toBe(200);
  });

  it("refuses a viewer's key and webhook changes and does nothing", async () => {
    const viewer = client("viewer");
    await viewer.page("/dashboard/webhooks");
    const issued = await viewer.post("/dashboard/keys", { name: "viewer's key" });
    expect(issued.status).toBe(403);
    const endpoint = await viewer.post("/dashboard/webhooks/endpoint", {
      url: "https://hooks.example.com/viewer",
      eventTypes: "settlement.delivered",
    });
    expect(endpoint.status).toBe(403);
    const webhooksPage = await viewer.page("/dashboard/webhooks");
    expect(webhooksPage).not.toContain('action="/dashboard/webhooks/endpoint');
    const log = await bodyOf(
      await partnerRequest(h, acme, "/api/integrations/audit-log?limit=200"),
      listAuditLog,
      200,
    );
    expect(log.data.filter((e) => e.actor.id === ids.viewer).map((e) => e.action)).toEqual([]);
  });
});

describe("inviting and managing members", () => {
  it("lets an admin invite by email with a role: the member exists and the email names where to sign in", async () => {
    const admin = client("admin");
    await admin.page("/dashboard/members");
    const email = freshEmail("invited");
    const invited = await admin.post("/dashboard/members", { email: email.toUpperCase(), role: "developer" });
    expect(invited.status).toBe(200);
    expect(await invited.text()).toContain(email);
    await h.settled();
    const mail = h.mailbox?.emails().find((e) => e.to.includes(email));
    expect(mail?.subject).toContain("Acme Wallet");
    expect(mail?.text).toContain("http://api.test/dashboard/sign-in");
    const row = (await members(acme)).find((m) => m.email === email);
    expect(row?.role).toBe("developer");
    // The invited person signs in as a developer.
    const invitee = await signedInClient(h, email);
    expect(navPaths(await invitee.page("/dashboard"))).toContain("/keys");
  });

  it("refuses an admin granting owner, and an invitation with no role or a bad email, changing nothing", async () => {
    const admin = client("admin");
    await admin.page("/dashboard/members");
    const before = (await members(acme)).length;
    const asOwner = await admin.post("/dashboard/members", { email: freshEmail("nope"), role: "owner" });
    expect(asOwner.status).toBe(403);
    const noRole = await admin.post("/dashboard/members", { email: freshEmail("nope"), role: "boss" });
    expect(noRole.status).toBe(400);
    const badEmail = await admin.post("/dashboard/members", { email: "not an email", role: "viewer" });
    expect(badEmail.status).toBe(400);
    expect(pageErrorCode(await badEmail.text())).toBe("INVALID_EMAIL");
    expect((await members(acme)).length).toBe(before);
  });

  it("refuses an admin changing or removing an owner; lets them change a developer", async () => {
    const admin = client("admin");
    await admin.page("/dashboard/members");
    const demote = await admin.post(`/dashboard/members/${ids.owner}/role`, { role: "viewer" });
    expect(demote.status).toBe(403);
    const remove = await admin.post(`/dashboard/members/${ids.owner}/remove`, {});
    expect(remove.status).toBe(403);
    expect((await members(acme)).find((m) => m.id === ids.owner)).toMatchObject({
      role: "owner",
      revokedAt: null,
    });
    const page = await admin.page("/dashboard/members");
    expect(page).not.toContain(`/dashboard/members/${ids.owner}/remove`);

    const changed = await admin.post(`/dashboard/members/${ids.developer}/role`, { role: "viewer" });
    expect(changed.status).toBe(303);
    expect((await members(acme)).find((m) => m.id === ids.developer)?.role).toBe("viewer");
    // The change holds at the member's next request: the role is read with the session.
    expect((await client("developer").get("/dashboard/keys")).status).toBe(403);
    await admin.post(`/dashboard/members/${ids.developer}/role`, { role: "developer" });
    expect((await client("developer").get("/dashboard/keys")).status).toBe(200);
  });

  it("never touches another organization's member: 404", async () => {
    const otherId = await addMember(h, other.organizationId, freshEmail("other"), "viewer");
    const owner = client("owner");
    await owner.page("/dashboard/members");
    expect((await owner.post(`/dashboard/members/${otherId}/role`, { role: "admin" })).status).toBe(404);
    expect((await owner.post(`/dashboard/members/${otherId}/remove`, {})).status).toBe(404);
    expect((await members(other)).find((m) => m.id === otherId)).toMatchObject({
      role: "viewer",
      revokedAt: null,
    });
  });

  it("audits role changes with who made them", async () => {
    const log = await bodyOf(
      await partnerRequest(h, acme, "/api/integrations/audit-log?limit=200&type=member.role_changed"),
      listAuditLog,
      200,
    );
    const change = log.data.find((e) => e.target.id === ids.developer && e.after?.role === "viewer");
    expect(change).toMatchObject({
      actor: { type: "member", id: ids.admin },
      before: { role: "developer" },
    });
  });
});

describe("the last owner", () => {
  it("cannot demote or remove themself while the only owner: 409 LAST_OWNER", async () => {
    const { h: own, acme: solo } = await twoOrganizations();
    try {
      const email = freshEmail("solo-owner");
      const ownerId = await addMember(own, solo.organizationId, email);
      const owner = await signedInClient(own, email);
      await owner.page("/dashboard/members");
      const demote = await owner.post(`/dashboard/members/${ownerId}/role`, { role: "admin" });
      expect(demote.status).toBe(409);
      expect(pageErrorCode(await demote.text())).toBe("LAST_OWNER");
      const revoke = await adminRequest(
        own,
        `/admin/organizations/${solo.organizationId}/members/${ownerId}`,
        {
          method: "DELETE",
        },
      );
      expect((await errorOf(revoke, 409)).code).toBe("LAST_OWNER");
      const patch = await adminRequest(
        own,
        `/admin/organizations/${solo.organizationId}/members/${ownerId}`,
        {
          method: "PATCH",
          body: { role: "developer" },
        },
      );
      expect((await errorOf(patch, 409)).code).toBe("LAST_OWNER");
    } finally {
      await own.close();
    }
  });
});
