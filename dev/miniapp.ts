import { asc, eq } from "drizzle-orm";
import type { ServiceContext } from "../lib/kernel/context";
import { createOrganization } from "../lib/tenancy/organizations";
import { integrations, organizations } from "../schema";

/** The organization `npm run dev` makes for the key-less miniapp routes (/api/breb/*). */
const MINIAPP_ORGANIZATION_NAME = "Local miniapp";

/** The local miniapp's integration: made on the first start, found again on the next ones. */
export async function localMiniappIntegration(
  ctx: Pick<ServiceContext, "db" | "clock">,
): Promise<{ integrationId: string; created: boolean }> {
  const [found] = await ctx.db
    .select({ id: integrations.id })
    .from(integrations)
    .innerJoin(organizations, eq(organizations.id, integrations.organizationId))
    .where(eq(organizations.name, MINIAPP_ORGANIZATION_NAME))
    .orderBy(asc(integrations.id))
    .limit(1);
  if (found) return { integrationId: found.id, created: false };
  // The local stack runs in mock mode: its keys are test keys.
  const { integration } = await createOrganization(
    { ...ctx, config: { MODE: "mock" } },
    { name: MINIAPP_ORGANIZATION_NAME },
  );
  return { integrationId: integration.id, created: true };
}
