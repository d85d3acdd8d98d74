import { and, eq, isNull } from "drizzle-orm";
import { apiKeys, integrations, organizations } from "../../schema";
import type { ServiceContext } from "../kernel/context";
import { type ApiKeyMode, hashApiKey } from "./api-key-format";
import { type Caller, MINIAPP_KEY_ID, type OrganizationSettings } from "./caller";
import { callerCacheOf } from "./caller-cache";
import type { ApiScope } from "./scopes";

/** Last use is refreshed at most this often per key, so a busy key costs no write per request. */
const LAST_USED_RESOLUTION_MS = 60_000;

export interface Authenticated {
  caller: Caller;
  /** A write to run after the response, or nothing when last use is fresh enough. */
  touch?: () => Promise<void>;
}

/**
 * Resolves a presented key of `mode` to its caller (and the organization's settings) with one indexed
 * lookup, or none while this app resolved the same key less than CALLER_CACHE_MS ago
 * (caller-cache.ts). Missing, malformed, unknown, revoked and other-mode keys are never cached and
 * all take the same path (hash, then one query) and all answer undefined, so neither the answer nor
 * its timing tells them apart.
 */
export async function authenticateApiKey(
  ctx: ServiceContext,
  presented: string | undefined,
  mode: ApiKeyMode,
): Promise<Authenticated | undefined> {
  const hash = await hashApiKey(presented ?? "");
  const now = ctx.clock.now();
  const cache = callerCacheOf(ctx);
  const known = presented === undefined ? undefined : cache.get(mode, hash, now);
  // A revocation or a settings change evicting while this lookup runs wins over what it read.
  const lookedUpAt = cache.evictions;
  const resolved = known ?? (await lookUp(ctx, hash, mode));
  if (!resolved || presented === undefined) return undefined;
  // An expired key is a revoked one, also when this app resolved it before it expired.
  const expiresAt = resolved.caller.restrictions?.expiresAt;
  if (expiresAt && expiresAt.getTime() <= now.getTime()) return undefined;
  if (!known) cache.set(mode, hash, { ...resolved, cachedAt: now.getTime() }, lookedUpAt);

  const { caller, lastUsedAt } = resolved;
  const stale = !lastUsedAt || now.getTime() - lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS;
  if (!stale) return { caller };
  // Written once per resolution window: this app's entry now says the key was just used.
  cache.set(mode, hash, { caller, lastUsedAt: now, cachedAt: known?.cachedAt ?? now.getTime() });
  return {
    caller,
    touch: async () => {
      await ctx.db.update(apiKeys).set({ lastUsedAt: now }).where(eq(apiKeys.id, caller.keyId));
    },
  };
}

async function lookUp(
  ctx: ServiceContext,
  hash: string,
  mode: ApiKeyMode,
): Promise<{ caller: Caller; lastUsedAt: Date | null } | undefined> {
  const [row] = await ctx.db
    .select({
      keyId: apiKeys.id,
      integrationId: apiKeys.integrationId,
      organizationId: apiKeys.organizationId,
      lastUsedAt: apiKeys.lastUsedAt,
      scopes: apiKeys.scopes,
      allowedIps: apiKeys.allowedIps,
      expiresAt: apiKeys.expiresAt,
      ...SETTINGS_COLUMNS,
    })
    .from(apiKeys)
    .innerJoin(organizations, eq(organizations.id, apiKeys.organizationId))
    .where(and(eq(apiKeys.hash, hash), eq(apiKeys.mode, mode), isNull(apiKeys.revokedAt)))
    .limit(1);
  if (!row) return undefined;
  return {
    caller: {
      organizationId: row.organizationId,
      integrationId: row.integrationId,
      keyId: row.keyId,
      organization: settingsOf(row),
      restrictions: {
        scopes: (row.scopes as ApiScope[] | null) ?? null,
        allowedIps: row.allowedIps ?? null,
        expiresAt: row.expiresAt,
      },
    },
    lastUsedAt: row.lastUsedAt,
  };
}

/** The Authorization header's bearer token, or undefined when there is none of that form. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = header?.match(/^Bearer\s+(\S+)\s*$/i);
  return match?.[1];
}

/**
 * The caller acting as an integration without a key: the mock-mode miniapp's configured one, or a
 * dashboard member's page (`actingAs` then stands where a key id would in rate limits and logs).
 */
export async function callerOfIntegration(
  ctx: ServiceContext,
  integrationId: string,
  actingAs: string = MINIAPP_KEY_ID,
): Promise<Caller | undefined> {
  const [row] = await ctx.db
    .select({
      integrationId: integrations.id,
      organizationId: integrations.organizationId,
      ...SETTINGS_COLUMNS,
    })
    .from(integrations)
    .innerJoin(organizations, eq(organizations.id, integrations.organizationId))
    .where(eq(integrations.id, integrationId))
    .limit(1);
  if (!row) return undefined;
  return {
    organizationId: row.organizationId,
    integrationId: row.integrationId,
    keyId: actingAs,
    organization: settingsOf(row),
  };
}

/** What stands for a key id where a dashboard page reads or acts for an integration. */
export const DASHBOARD_KEY_ID = "dashboard";

/** The organization's settings a caller carries, read with its key or integration in one lookup. */
const SETTINGS_COLUMNS = {
  intakePaused: organizations.intakePaused,
  burnPlanEnabled: organizations.burnPlanEnabled,
  serviceFeeBps: organizations.serviceFeeBps,
  fastTransfer: organizations.fastTransfer,
  settlementAccountActive: organizations.settlementAccountActive,
  partnerFeeBps: organizations.partnerFeeBps,
  partnerFeeAddress: organizations.partnerFeeAddress,
  defaultSourceChainId: organizations.defaultSourceChainId,
  perUserDailyLimitUsd: organizations.perUserDailyLimitUsd,
  perUserMonthlyLimitUsd: organizations.perUserMonthlyLimitUsd,
  organizationDailyLimitUsd: organizations.organizationDailyLimitUsd,
} as const;

/** The settings of a looked-up row, without the key's or integration's own columns. */
function settingsOf(row: OrganizationSettings): OrganizationSettings {
  return Object.fromEntries(
    Object.keys(SETTINGS_COLUMNS).map((name) => [name, row[name as keyof OrganizationSettings]]),
  ) as unknown as OrganizationSettings;
}
