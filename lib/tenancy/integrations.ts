import { and, asc, count, desc, eq, gt, isNull, lt, or, sql } from "drizzle-orm";
import { apiKeys, integrations } from "../../schema";
import { auditFields, recordAudit } from "../audit/record";
import type { Config } from "../kernel/config";
import type { ServiceContext } from "../kernel/context";
import { pageOf } from "../kernel/db/paging";
import { ApiError, type Problem } from "../kernel/errors/api-error";
import { newId } from "../kernel/ids";
import { canonicalRange } from "../kernel/ip-ranges";
import { apiKeyModeFor, generateApiKey } from "./api-key-format";
import { callerCacheOf } from "./caller-cache";
import {
  type ApiKeyRecord,
  getOrganization,
  type Integration,
  type IssuedKey,
  required,
} from "./organizations";
import type { ApiScope } from "./scopes";

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

/**
 * What a key is asked for: a name, and the limits of a restricted key (docs/tenancy.md, "Restricted
 * keys"): its scopes (every one when absent), the client addresses it is accepted from (any when
 * absent; IPv4 and IPv6 CIDRs or single addresses), and when it stops working.
 */
export interface KeyRequest {
  name?: string;
  scopes?: ApiScope[];
  allowedIps?: string[];
  expiresAt?: Date;
}

/** The most ranges one key's allow list holds. */
export const MAX_ALLOWED_IPS = 50;

/** A key request's limits as stored, each refused with the field it names. */
function keyRestrictions(ctx: KeyContext, input: KeyRequest) {
  const problems: Problem[] = [];
  const allowedIps = input.allowedIps?.map((text, index) => {
    const range = canonicalRange(text.trim());
    if (!range) {
      problems.push({
        field: `body.allowedIps.${index}`,
        code: "INVALID_REQUEST",
        problem: "is not an IPv4 or IPv6 address or CIDR range",
      });
    }
    return range ?? text;
  });
  if (input.expiresAt && input.expiresAt.getTime() <= ctx.clock.now().getTime()) {
    problems.push({ field: "body.expiresAt", code: "INVALID_REQUEST", problem: "must be in the future" });
  }
  if (problems.length > 0) throw new ApiError("INVALID_REQUEST", { problems });
  return {
    scopes: input.scopes ? [...new Set(input.scopes)] : null,
    allowedIps: allowedIps ? [...new Set(allowedIps)] : null,
    expiresAt: input.expiresAt ?? null,
  };
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
  input: KeyRequest,
): Promise<IssuedKey> {
  return insertApiKey(ctx, await getIntegration(ctx, integrationId), input);
}

/** Keys a member may issue one organization in any hour, counting every key it was issued then. */
const MEMBER_KEYS_PER_HOUR = 20;
const HOUR_MS = 60 * 60_000;

/**
 * A key a dashboard member issues: as issueApiKey, while the organization was issued fewer than
 * MEMBER_KEYS_PER_HOUR keys in the last hour, else RATE_LIMITED until the oldest of those is an hour
 * old. Each key has a rate limit of its own, so minting keys at will would buy requests at will.
 * Issues for one organization take turns on a lock, so two at once cannot both pass the count.
 */
export async function issueMemberApiKey(
  ctx: KeyContext,
  integrationId: string,
  input: KeyRequest,
): Promise<IssuedKey> {
  const integration = await getIntegration(ctx, integrationId);
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtextextended(${`api-keys:${integration.organizationId}`}, 0))`,
    );
    const recent = await tx
      .select({ createdAt: apiKeys.createdAt })
      .from(apiKeys)
      .where(
        and(
          eq(apiKeys.organizationId, integration.organizationId),
          gt(apiKeys.createdAt, new Date(now.getTime() - HOUR_MS)),
        ),
      )
      .orderBy(desc(apiKeys.createdAt))
      .limit(MEMBER_KEYS_PER_HOUR);
    const oldestCounted = recent[MEMBER_KEYS_PER_HOUR - 1]?.createdAt;
    if (oldestCounted) {
      throw new ApiError("RATE_LIMITED", {
        retryAfterSeconds: (oldestCounted.getTime() + HOUR_MS - now.getTime()) / 1000,
        detail: {
          es: `(una organización recibe como mucho ${MEMBER_KEYS_PER_HOUR} llaves por hora)`,
          en: `(an organization is issued at most ${MEMBER_KEYS_PER_HOUR} keys an hour)`,
        },
      });
    }
    return insertApiKey({ ...ctx, db: tx }, integration, input);
  });
}

async function insertApiKey(
  ctx: KeyContext,
  integration: Integration,
  input: KeyRequest,
): Promise<IssuedKey> {
  const restrictions = keyRestrictions(ctx, input);
  const mode = apiKeyModeFor(ctx.config.MODE);
  const generated = await generateApiKey(mode);
  return ctx.db.transaction(async (tx) => {
    // Issues for one integration take turns, so two at once cannot both pass the count.
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtextextended(${`api-keys-active:${integration.id}`}, 0))`,
    );
    const [active] = await tx
      .select({ count: count() })
      .from(apiKeys)
      .where(
        and(
          eq(apiKeys.integrationId, integration.id),
          isNull(apiKeys.revokedAt),
          or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, ctx.clock.now())),
        ),
      );
    if ((active?.count ?? 0) >= MAX_ACTIVE_KEYS) {
      throw new ApiError("API_KEY_LIMIT_REACHED", { detail: `(${MAX_ACTIVE_KEYS} active keys)` });
    }
    return insertKeyRow(tx, ctx, integration, input, { restrictions, mode, generated });
  });
}

/** The most keys one integration may have active (neither revoked nor expired) at once. */
export const MAX_ACTIVE_KEYS = 25;

async function insertKeyRow(
  db: KeyContext["db"],
  ctx: KeyContext,
  integration: Integration,
  input: KeyRequest,
  key: {
    restrictions: ReturnType<typeof keyRestrictions>;
    mode: ReturnType<typeof apiKeyModeFor>;
    generated: Awaited<ReturnType<typeof generateApiKey>>;
  },
): Promise<IssuedKey> {
  const { restrictions, mode, generated } = key;
  const [record] = await db
    .insert(apiKeys)
    .values({
      id: newId("key", ctx.clock),
      integrationId: integration.id,
      organizationId: integration.organizationId,
      hash: generated.hash,
      start: generated.start,
      mode,
      name: input.name ?? null,
      ...restrictions,
      createdAt: ctx.clock.now(),
    })
    .returning();
  const issued = required(record);
  await recordAudit(ctx, db, {
    organizationId: issued.organizationId,
    action: "api_key.issued",
    targetId: issued.id,
    after: auditFields(issued, KEY_AUDITED_FIELDS),
  });
  return { apiKey: generated.key, record: issued };
}

/** What the audit log shows of a key: never its hash, never the key. */
const KEY_AUDITED_FIELDS = [
  "integrationId",
  "name",
  "start",
  "mode",
  "scopes",
  "allowedIps",
  "expiresAt",
  "revokedAt",
] as const satisfies readonly (keyof ApiKeyRecord)[];

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
  const revoked = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(apiKeys)
      .set({ revokedAt: ctx.clock.now() })
      .where(and(eq(apiKeys.id, keyId), eq(apiKeys.integrationId, integrationId), isNull(apiKeys.revokedAt)))
      .returning();
    if (row) {
      await recordAudit(ctx, tx, {
        organizationId: row.organizationId,
        action: "api_key.revoked",
        targetId: row.id,
        before: { ...auditFields(row, KEY_AUDITED_FIELDS), revokedAt: null },
        after: auditFields(row, KEY_AUDITED_FIELDS),
      });
    }
    return row;
  });
  callerCacheOf(ctx).evict((caller) => caller.keyId === keyId);
  if (revoked) return revoked;
  const [existing] = await ctx.db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.integrationId, integrationId)));
  if (!existing) throw new ApiError("API_KEY_NOT_FOUND");
  return existing;
}

/**
 * Sets when a key stops working (a rotation with overlap: the new key is issued, the old one given an
 * expiry, the partner moves over), or with null that it never does. A revoked or expired key is
 * final: API_KEY_INACTIVE (409), never brought back to life (nor past the active keys' cap). The
 * change evicts the key's cached caller in this isolate, as revocation does; another isolate sees it
 * within CALLER_CACHE_MS.
 */
export async function setApiKeyExpiry(
  ctx: Pick<ServiceContext, "db" | "clock"> & { config: object },
  integrationId: string,
  keyId: string,
  expiresAt: Date | null,
): Promise<ApiKeyRecord> {
  const now = ctx.clock.now();
  if (expiresAt && !(expiresAt.getTime() > now.getTime())) {
    throw new ApiError("INVALID_REQUEST", {
      problems: [{ field: "body.expiresAt", code: "INVALID_REQUEST", problem: "must be in the future" }],
    });
  }
  const active = and(
    eq(apiKeys.id, keyId),
    eq(apiKeys.integrationId, integrationId),
    isNull(apiKeys.revokedAt),
    or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, now)),
  );
  const updated = await ctx.db.transaction(async (tx) => {
    const [before] = await tx.select().from(apiKeys).where(active).for("update");
    if (!before) return undefined;
    const [row] = await tx.update(apiKeys).set({ expiresAt }).where(eq(apiKeys.id, before.id)).returning();
    if (row) {
      await recordAudit(ctx, tx, {
        organizationId: row.organizationId,
        action: "api_key.updated",
        targetId: row.id,
        before: auditFields(before, ["expiresAt"]),
        after: auditFields(row, ["expiresAt"]),
      });
    }
    return row;
  });
  callerCacheOf(ctx).evict((caller) => caller.keyId === keyId);
  if (updated) return updated;
  const [existing] = await ctx.db
    .select({ id: apiKeys.id })
    .from(apiKeys)
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.integrationId, integrationId)));
  if (!existing) throw new ApiError("API_KEY_NOT_FOUND");
  throw new ApiError("API_KEY_INACTIVE");
}
