import { and, asc, desc, eq, isNull, lt } from "drizzle-orm";
import { apiKeys, integrations } from "../../schema";
import type { Config } from "../kernel/config";
import type { ServiceContext } from "../kernel/context";
import { pageOf } from "../kernel/db/paging";
import { ApiError } from "../kernel/errors/api-error";
import { newId } from "../kernel/ids";
import { apiKeyModeFor, generateApiKey } from "./api-key-format";
import { callerCacheOf } from "./caller-cache";
import {
  type ApiKeyRecord,
  getOrganization,
  type Integration,
  type IssuedKey,
  required,
} from "./organizations";

export async function createIntegration(
  ctx: ServiceContext,
  organizationId: string,
  input: { name: string },
): Promise<Integration> {
  await getOrganization(ctx, organizationId);
  const [integration] = await ctx.db
    .insert(integrations)
    .values({ id: newId("int", ctx.clock), organizationId, name: input.name, createdAt: ctx.clock.now() })
    .returning();
  return required(integration);
}

export async function listIntegrations(ctx: ServiceContext, organizationId: string): Promise<Integration[]> {
  await getOrganization(ctx, organizationId);
  return ctx.db
    .select()
    .from(integrations)
    .where(eq(integrations.organizationId, organizationId))
    .orderBy(asc(integrations.id));
}

/** What the key verbs need: the database, the clock, and the mode that decides a key's kind. */
type KeyContext = Pick<ServiceContext, "db" | "clock"> & { config: Pick<Config, "MODE"> };

export async function getIntegration(
  ctx: Pick<ServiceContext, "db">,
  integrationId: string,
): Promise<Integration> {
  const [integration] = await ctx.db.select().from(integrations).where(eq(integrations.id, integrationId));
  if (!integration) throw new ApiError("INTEGRATION_NOT_FOUND");
  return integration;
}

export async function issueApiKey(
  ctx: KeyContext,
  integrationId: string,
  input: { name?: string },
): Promise<IssuedKey> {
  const integration = await getIntegration(ctx, integrationId);
  const mode = apiKeyModeFor(ctx.config.MODE);
  const generated = await generateApiKey(mode);
  const [record] = await ctx.db
    .insert(apiKeys)
    .values({
      id: newId("key", ctx.clock),
      integrationId,
      organizationId: integration.organizationId,
      hash: generated.hash,
      start: generated.start,
      mode,
      name: input.name ?? null,
      createdAt: ctx.clock.now(),
    })
    .returning();
  return { apiKey: generated.key, record: required(record) };
}

export const KEYS_PAGE_LIMIT = 500;
export const KEYS_DEFAULT_LIMIT = 100;

/** An integration's keys, newest first, a page at a time; `cursor` is the previous page's last key id. */
export async function listApiKeys(
  ctx: ServiceContext,
  integrationId: string,
  page: { limit: number; cursor?: string | undefined } = { limit: KEYS_DEFAULT_LIMIT },
): Promise<{ keys: ApiKeyRecord[]; nextCursor: string | null }> {
  await getIntegration(ctx, integrationId);
  const rows = await ctx.db
    .select()
    .from(apiKeys)
    .where(
      and(eq(apiKeys.integrationId, integrationId), page.cursor ? lt(apiKeys.id, page.cursor) : undefined),
    )
    .orderBy(desc(apiKeys.id))
    .limit(page.limit + 1);
  const { page: keys, nextCursor } = pageOf(rows, page.limit, (key) => key.id);
  return { keys, nextCursor };
}

/**
 * Revoking is final, and immediate in this isolate (its cached caller goes with it); another isolate
 * stops accepting the key within CALLER_CACHE_MS. Revoking a revoked key answers the key as it is.
 */
export async function revokeApiKey(
  ctx: Pick<ServiceContext, "db" | "clock"> & { config: object },
  integrationId: string,
  keyId: string,
): Promise<ApiKeyRecord> {
  const [revoked] = await ctx.db
    .update(apiKeys)
    .set({ revokedAt: ctx.clock.now() })
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.integrationId, integrationId), isNull(apiKeys.revokedAt)))
    .returning();
  callerCacheOf(ctx).evict((caller) => caller.keyId === keyId);
  if (revoked) return revoked;
  const [existing] = await ctx.db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.integrationId, integrationId)));
  if (!existing) throw new ApiError("API_KEY_NOT_FOUND");
  return existing;
}
