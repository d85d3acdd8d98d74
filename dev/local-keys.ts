import { and, eq, isNull } from "drizzle-orm";
import type { ServiceContext } from "../lib/kernel/context";
import { issueApiKey, revokeApiKey } from "../lib/tenancy/integrations";
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
 * one is revoked and a test key issued in its place, for the same integration and name, with the
 * tenancy verbs themselves. Their whole keys are answered once, for `npm run dev` to print; nothing
 * is done when there are none.
 */
export async function reissueLocalLiveKeys(
  ctx: Pick<ServiceContext, "db" | "clock">,
): Promise<ReissuedKey[]> {
  const live = await ctx.db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.mode, "live"), isNull(apiKeys.revokedAt)));
  const local = { ...ctx, config: { MODE: "mock" as const } };
  const reissued: ReissuedKey[] = [];
  for (const old of live) {
    const issued = await issueApiKey(local, old.integrationId, old.name ? { name: old.name } : {});
    await revokeApiKey(local, old.integrationId, old.id);
    reissued.push({
      integrationId: old.integrationId,
      name: old.name,
      revokedStart: old.start,
      apiKey: issued.apiKey,
    });
  }
  return reissued;
}
