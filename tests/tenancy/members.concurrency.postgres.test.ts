import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { route as listMembersRoute } from "../../functions/tenancy/admin-list-members";
import { createHarness, type Harness } from "../harness/app";
import { bodyOf, errorOf } from "../harness/bodies";
import { addMember, freshEmail } from "../harness/dashboard";
import { adminRequest, createTenant } from "../harness/tenants";

const serverUrl = process.env.TEST_DATABASE_URL;
if (!serverUrl)
  console.warn("members.concurrency: TEST_DATABASE_URL is not set; skipping the real Postgres races.");

/**
 * The last owner (issue 37) on real PostgreSQL: two owners demoting or removing each other at the
 * same moment each see the other still an owner unless the changes take turns; the organization's
 * row lock makes one of them 409 LAST_OWNER.
 */
describe.skipIf(!serverUrl)("the last owner, raced on real PostgreSQL", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({ databaseUrl: serverUrl as string });
  }, 60_000);
  afterAll(() => h?.close());

  async function activeOwners(organizationId: string) {
    const response = await adminRequest(h, `/admin/organizations/${organizationId}/members`);
    return (await bodyOf(response, listMembersRoute, 200)).members.filter(
      (m) => m.role === "owner" && !m.revokedAt,
    );
  }

  for (const [name, change] of [
    ["demote", { method: "PATCH", body: { role: "admin" } }],
    ["remove", { method: "DELETE" }],
  ] as const) {
    it(`keeps one owner when two owners ${name} each other at once, ten times over`, async () => {
      for (let round = 0; round < 10; round++) {
        const { organizationId } = await createTenant(h, `Twins ${name} ${round}`);
        const first = await addMember(h, organizationId, freshEmail("twin-a"), "owner");
        const second = await addMember(h, organizationId, freshEmail("twin-b"), "owner");
        const answers = await Promise.all(
          [first, second].map((id) =>
            adminRequest(h, `/admin/organizations/${organizationId}/members/${id}`, change),
          ),
        );
        expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
        const refused = answers.find((a) => a.status === 409);
        if (refused) expect((await errorOf(refused, 409)).code).toBe("LAST_OWNER");
        expect(await activeOwners(organizationId)).toHaveLength(1);
      }
    });
  }
});
