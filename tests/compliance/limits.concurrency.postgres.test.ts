import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../harness/app";
import { errorOf } from "../harness/bodies";
import { createOrder, DESTINATION_ADDRESS, enableBurnPlan, partnerRequest } from "../harness/settlement";
import { adminRequest, createTenant } from "../harness/tenants";

const serverUrl = process.env.TEST_DATABASE_URL;
if (!serverUrl)
  console.warn("limits.concurrency: TEST_DATABASE_URL is not set; skipping the real Postgres races.");

/**
 * Volume limits raced on real PostgreSQL (issue 38): two orders for one user, each under the limit
 * alone and over it together, created at the same moment; the volume locks make the second see the
 * first, so exactly one is refused.
 */
describe.skipIf(!serverUrl)("two orders racing for the last of a limit", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({ chains: true, databaseUrl: serverUrl as string });
  }, 120_000);
  afterAll(() => h?.close());

  it("lets exactly one of two concurrent orders under a per-user daily limit of 50, five rounds over", async () => {
    const tenant = await createTenant(h, "Racing");
    await enableBurnPlan(h, tenant);
    const patched = await adminRequest(h, `/admin/organizations/${tenant.organizationId}`, {
      method: "PATCH",
      body: { perUserDailyLimitUsd: "50" },
    });
    expect(patched.status).toBe(200);
    for (let round = 0; round < 5; round++) {
      const user = privateKeyToAccount(generatePrivateKey()).address;
      const quoteIds: string[] = [];
      for (let i = 0; i < 2; i++) {
        const quoted = await partnerRequest(h, tenant, "/api/integrations/settlements/quotes", {
          method: "POST",
          body: { sendAmountUsdc: "30", sourceAddress: user, destinationAddress: DESTINATION_ADDRESS },
        });
        expect(quoted.status).toBe(201);
        quoteIds.push(((await quoted.json()) as { quoteId: string }).quoteId);
      }
      const answers = await Promise.all(
        quoteIds.map((quoteId) => createOrder(h, tenant, quoteId, `race-${quoteId}`)),
      );
      expect(answers.map((answer) => answer.status).sort()).toEqual([201, 403]);
      const refused = answers.find((answer) => answer.status === 403);
      if (refused) expect((await errorOf(refused, 403)).code).toBe("LIMIT_EXCEEDED");
    }
  });
});
