import { and, eq, isNull } from "drizzle-orm";
import type { ServiceContext } from "../lib/context";
import { newId } from "../lib/ids";
import { generateApiKey } from "../lib/tenancy/api-key-format";
import { apiKeys } from "../schema";

export interface ReissuedKey {
  integrationId: string;
  name: string | null;
  revokedStart: string;
  apiKey: string;
}

/**
 * The local stack runs in mock mode, where only test keys (`copm_test_…`) work. A local database
 * from before keys had modes holds live keys (`copm_live_…`), which would now be refused: each active
 * one is revoked and a test key issued in its place, for the same integration and name. Their whole
 * keys are answered once, for `npm run dev` to print; nothing is done when there are none.
 */
export async function reissueLocalLiveKeys(
  ctx: Pick<ServiceContext, "db" | "clock">,
): Promise<ReissuedKey[]> {
  const live = await ctx.db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.mode, "live"), isNull(apiKeys.revokedAt)));
  const reissued: ReissuedKey[] = [];
  for (const old of live) {
    const generated = await generateApiKey("test");
    await ctx.db.transaction(async (tx) => {
      await tx.update(apiKeys).set({ revokedAt: ctx.clock.now() }).where(eq(apiKeys.id, old.id));
      await tx.insert(apiKeys).values({
        id: newId("key", ctx.clock),
        integrationId: old.integrationId,
        organizationId: old.organizationId,
        hash: generated.hash,
        start: generated.start,
        mode: "test",
        name: old.name,
        createdAt: ctx.clock.now(),
      });
    });
    reissued.push({
      integrationId: old.integrationId,
      name: old.name,
      revokedStart: old.start,
      apiKey: generated.key,
    });
  }
  return reissued;
}
