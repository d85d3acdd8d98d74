import { asc, eq, gt } from "drizzle-orm";
import { apiKeys, integrations, organizations } from "../../schema";
import { auditFields, recordAudit } from "../audit/record";
import { screenAddresses } from "../compliance";
import { findSourceChain, type SourceChainRef } from "../kernel/chain/source-chains";
import type { Config } from "../kernel/config";
import type { ServiceContext } from "../kernel/context";
import { ApiError } from "../kernel/errors/api-error";
import { newId } from "../kernel/ids";
import { apiKeyModeFor, generateApiKey } from "./api-key-format";
import { callerCacheOf } from "./caller-cache";

export type Organization = typeof organizations.$inferSelect;
export type Integration = typeof integrations.$inferSelect;
export type ApiKeyRecord = typeof apiKeys.$inferSelect;

export interface IssuedKey {
  /** The whole key: shown once, never stored. */
  apiKey: string;
  record: ApiKeyRecord;
}

/** An organization with its first integration and that integration's first key, atomically. */
export async function createOrganization(
  ctx: Pick<ServiceContext, "db" | "clock"> & { config: Pick<Config, "MODE"> },
  input: { name: string },
): Promise<{ organization: Organization; integration: Integration; key: IssuedKey }> {
  const now = ctx.clock.now();
  const mode = apiKeyModeFor(ctx.config.MODE);
  const generated = await generateApiKey(mode);
  return ctx.db.transaction(async (tx) => {
    const [organization] = await tx
      .insert(organizations)
      .values({ id: newId("org", ctx.clock), name: input.name, createdAt: now, updatedAt: now })
      .returning();
    const [integration] = await tx
      .insert(integrations)
      .values({
        id: newId("int", ctx.clock),
        organizationId: required(organization).id,
        name: "Default",
        createdAt: now,
      })
      .returning();
    const [record] = await tx
      .insert(apiKeys)
      .values({
        id: newId("key", ctx.clock),
        integrationId: required(integration).id,
        organizationId: required(organization).id,
        hash: generated.hash,
        start: generated.start,
        mode,
        name: "Default",
        createdAt: now,
      })
      .returning();
    // The first key is issued as any other: in the audit log.
    await recordAudit(ctx, tx, {
      organizationId: required(organization).id,
      action: "api_key.issued",
      targetId: required(record).id,
      after: { integrationId: required(integration).id, name: "Default", start: generated.start, mode },
    });
    return {
      organization: required(organization),
      integration: required(integration),
      key: { apiKey: generated.key, record: required(record) },
    };
  });
}

export async function listOrganizations(
  ctx: ServiceContext,
  page: { limit: number; after?: string },
): Promise<Organization[]> {
  return ctx.db
    .select()
    .from(organizations)
    .where(page.after ? gt(organizations.id, page.after) : undefined)
    .orderBy(asc(organizations.id))
    .limit(page.limit);
}

export async function getOrganization(ctx: ServiceContext, id: string): Promise<Organization> {
  const [organization] = await ctx.db.select().from(organizations).where(eq(organizations.id, id));
  if (!organization) throw new ApiError("ORGANIZATION_NOT_FOUND");
  return organization;
}

/** The most an organization may charge as its own fee: 1 % (of a settlement's principal, of a payout's provider amount). */
export const PARTNER_FEE_MAX_BPS = 100;

export interface OrganizationSettings {
  intakePaused?: boolean;
  burnPlanEnabled?: boolean;
  serviceFeeBps?: number;
  fastTransfer?: boolean;
  settlementAccountActive?: boolean;
  partnerFeeBps?: number;
  partnerFeeAddress?: string | null;
  /** The default source chain by id or name; null for the profile's default. */
  defaultSourceChain?: SourceChainRef | null;
  name?: string;
  requireTwoFactor?: boolean;
  /** Volume limits in USDC atomic units; null removes one. */
  perUserDailyLimitUsd?: bigint | null;
  perUserMonthlyLimitUsd?: bigint | null;
  organizationDailyLimitUsd?: bigint | null;
}

/**
 * Changes an organization's settings: at once for this isolate's keys (their cached callers carry
 * the settings, so they go); another isolate sees them within CALLER_CACHE_MS.
 */
/** What changing settings needs to know beyond the kernel's: the settlement account, when one is set up. */
type OrganizationServices = ServiceContext & { settlement?: { accounts: readonly { address: string }[] } };

export async function updateOrganization(
  ctx: OrganizationServices,
  id: string,
  settings: OrganizationSettings,
): Promise<Organization> {
  assertPartnerFeeAddress(ctx, settings.partnerFeeAddress);
  if (settings.partnerFeeAddress) {
    // Fees are paid on the destination chain (payout deposits, delivered settlements).
    await screenAddresses(
      ctx,
      [{ address: settings.partnerFeeAddress as `0x${string}`, field: "body.partnerFeeAddress" }],
      [ctx.chains.byRole("destination")],
      "REQUEST",
    );
  }
  const { defaultSourceChain, ...rest } = settings;
  const changes = {
    ...rest,
    ...(defaultSourceChain === undefined
      ? {}
      : { defaultSourceChainId: sourceChainIdOf(ctx, defaultSourceChain) }),
  };
  const organization = await ctx.db.transaction(async (tx) => {
    const [before] = await tx.select().from(organizations).where(eq(organizations.id, id)).for("update");
    if (!before) return undefined;
    const [after] = await tx
      .update(organizations)
      .set({ ...changes, updatedAt: ctx.clock.now() })
      .where(eq(organizations.id, id))
      .returning();
    const fields = Object.keys(changes) as (keyof Organization & string)[];
    await recordAudit(ctx, tx, {
      organizationId: id,
      action: "organization.updated",
      targetId: id,
      before: auditFields(before, fields),
      after: after ? auditFields(after, fields) : null,
    });
    return after;
  });
  callerCacheOf(ctx).evict((caller) => caller.organizationId === id);
  if (!organization) throw new ApiError("ORGANIZATION_NOT_FOUND");
  return organization;
}

/** The chain id a default source chain setting names, refused unless the service serves it. */
function sourceChainIdOf(ctx: ServiceContext, ref: SourceChainRef | null): number | null {
  if (ref === null) return null;
  const chain = findSourceChain(ctx.chains, ref);
  if (chain) return chain.chainId;
  throw new ApiError("UNSUPPORTED_SOURCE_CHAIN", {
    problems: [
      {
        field: "body.defaultSourceChain",
        code: "UNSUPPORTED_SOURCE_CHAIN",
        problem: "is not a source chain this service serves (by chain id or name)",
      },
    ],
  });
}

/**
 * The organization's fee goes to an address of its own: never the service's settlement account
 * (the "payment" would be the account paying itself, books saying the partner was paid) nor the
 * service's payout fee wallet.
 */
function assertPartnerFeeAddress(ctx: OrganizationServices, address: string | null | undefined): void {
  if (!address) return;
  const service = [
    ...(ctx.settlement?.accounts ?? []).map((own) => own.address),
    ctx.config.BREB_FEE_WALLET,
  ].filter((own): own is string => typeof own === "string");
  if (service.some((own) => own.toLowerCase() === address.toLowerCase())) {
    throw new ApiError("INVALID_REQUEST", {
      problems: [
        {
          field: "body.partnerFeeAddress",
          code: "INVALID_REQUEST",
          problem: "is one of the service's own addresses (its settlement account or fee wallet)",
        },
      ],
    });
  }
}

export function required<T>(row: T | undefined): T {
  if (row === undefined) throw new Error("a write returned no row");
  return row;
}
