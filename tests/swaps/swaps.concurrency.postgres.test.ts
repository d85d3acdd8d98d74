import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { route as confirmSwap } from "../../functions/swaps/confirm-swap";
import { swapIntents } from "../../schema";
import { createHarness, type Harness } from "../harness/app";
import { bodyOf, errorOf } from "../harness/bodies";
import { confirmRequest, minedSwap, prepareSwap } from "../harness/swaps";
import { createTenant } from "../harness/tenants";

const serverUrl = process.env.TEST_DATABASE_URL;
if (!serverUrl)
  console.warn("swaps.concurrency: TEST_DATABASE_URL is not set; skipping the real Postgres races.");

describe.skipIf(!serverUrl)("swap claims racing on real PostgreSQL (issue 20, finding 2)", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({ chains: true, databaseUrl: serverUrl as string });
  }, 60_000);
  afterAll(() => h?.close());

  it("records the owner's swap under the owner's intent while ten look-alikes race it with the same hash", async () => {
    const owner = await createTenant(h);
    const { body, prepared, hash } = await minedSwap(h, owner);
    const strangers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => createTenant(h, `Stranger ${i}`)),
    );
    const lookAlikes = await Promise.all(
      strangers.map(async (stranger) => ({ stranger, intent: await prepareSwap(h, stranger, body) })),
    );
    const [ownerAnswer, ...strangerAnswers] = (await Promise.all([
      confirmRequest(h, owner, prepared.intentId, { txHash: hash }),
      ...lookAlikes.map(({ stranger, intent }) =>
        confirmRequest(h, stranger, intent.intentId, { txHash: hash }),
      ),
    ])) as [Response, ...Response[]];
    expect((await bodyOf(ownerAnswer, confirmSwap, 200)).intentId).toBe(prepared.intentId);
    for (const answer of strangerAnswers) {
      const { status, body: error } = await errorOf(answer);
      expect(["400 INVALID_SWAP", "409 TX_ALREADY_USED"]).toContain(`${status} ${error.error.code}`);
    }
    const recorded = await h.database.db
      .select({ id: swapIntents.id, organizationId: swapIntents.organizationId })
      .from(swapIntents)
      .where(eq(swapIntents.txHash, hash.toLowerCase()));
    expect(recorded).toEqual([{ id: prepared.intentId, organizationId: owner.organizationId }]);
  });
});
