import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reissueLocalLiveKeys } from "../../dev/local-keys";
import { newId } from "../../lib/kernel/ids";
import { hashApiKey, visibleStart } from "../../lib/tenancy/api-key-format";
import { apiKeys } from "../../schema";
import { createHarness, type Harness } from "../harness/app";
import { liveEnv, UNUSED_IDENTITY_PROVIDERS, UNUSED_PAYOUT_PROVIDER } from "../harness/identity";
import { partnerRequest } from "../harness/settlement";
import { createTenant, type Tenant } from "../harness/tenants";

/** A well-formed key of the other kind, stored for the tenant's integration as if issued there once. */
async function plantedKey(h: Harness, tenant: Tenant, prefix: "copm_live_" | "copm_test_"): Promise<string> {
  const body = tenant.apiKey.slice("copm_xxxx_".length);
  const key = `${prefix}${body}`;
  await h.database.db.insert(apiKeys).values({
    id: newId("key", h.clock),
    integrationId: tenant.integrationId,
    organizationId: tenant.organizationId,
    hash: await hashApiKey(key),
    start: visibleStart(key),
    mode: prefix === "copm_live_" ? "live" : "test",
    createdAt: h.clock.now(),
  });
  return key;
}

async function answer(h: Harness, apiKey: string): Promise<[number, unknown]> {
  const response = await partnerRequest(
    h,
    { organizationId: "", integrationId: "", apiKey },
    "/api/integrations/settlements/orders",
  );
  return [response.status, await response.json()];
}

describe("test keys and live keys never mix (issue 20, finding 12)", () => {
  describe("mock mode", () => {
    let h: Harness;
    beforeAll(async () => {
      h = await createHarness();
    });
    afterAll(() => h.close());

    it("issues copm_test_ keys, and refuses a live key, even one stored here, with a 401 saying a test key is expected", async () => {
      const tenant = await createTenant(h);
      expect(tenant.apiKey).toMatch(/^copm_test_[0-9A-Za-z]{49}$/);
      expect((await answer(h, tenant.apiKey))[0]).toBe(200);
      const live = await plantedKey(h, tenant, "copm_live_");
      expect(await answer(h, live)).toEqual([
        401,
        {
          error:
            "This is a live key (copm_live_…); this service runs in test mode and accepts test keys (copm_test_…) only.",
        },
      ]);
    });

    it("npm run dev re-issues a local database's live keys as test keys that work, revoking the old ones", async () => {
      const tenant = await createTenant(h);
      const live = await plantedKey(h, tenant, "copm_live_");
      const reissued = await reissueLocalLiveKeys({ db: h.database.db, clock: h.clock });
      const mine = reissued.filter((key) => key.integrationId === tenant.integrationId);
      expect(mine).toHaveLength(1);
      expect(mine[0]?.apiKey).toMatch(/^copm_test_/);
      expect((await answer(h, mine[0]?.apiKey as string))[0]).toBe(200);
      const [stored] = await h.database.db
        .select()
        .from(apiKeys)
        .where(eq(apiKeys.hash, await hashApiKey(live)));
      expect(stored?.revokedAt).not.toBeNull();
      // Once done, a second start finds nothing to re-issue.
      expect(await reissueLocalLiveKeys({ db: h.database.db, clock: h.clock })).toEqual([]);
    });
  });

  describe("live mode", () => {
    let h: Harness;
    beforeAll(async () => {
      h = await createHarness({
        env: { ...liveEnv(), ...UNUSED_IDENTITY_PROVIDERS, ...UNUSED_PAYOUT_PROVIDER },
      });
    });
    afterAll(() => h.close());

    it("issues copm_live_ keys, and refuses a test key, even one stored here, with a 401 saying a live key is expected", async () => {
      const tenant = await createTenant(h);
      expect(tenant.apiKey).toMatch(/^copm_live_[0-9A-Za-z]{49}$/);
      expect((await answer(h, tenant.apiKey))[0]).toBe(200);
      const test = await plantedKey(h, tenant, "copm_test_");
      expect(await answer(h, test)).toEqual([
        401,
        {
          error:
            "This is a test key (copm_test_…); this service runs in live mode and accepts live keys (copm_live_…) only.",
        },
      ]);
    });
  });
});
