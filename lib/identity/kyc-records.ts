import { and, eq, sql } from "drizzle-orm";
import { kycRecords } from "../../schema";
import type { Database } from "../kernel/db/database";
import { isUniqueViolation } from "../kernel/db/errors";
import { ApiError } from "../kernel/errors/api-error";
import { newId } from "../kernel/ids";
import { ProviderFailure } from "../kernel/provider-failure";
import type { PartnerContext } from "../tenancy/caller";
import type { IdentityServices, KycCallback } from "./ports";
import { assertWalletSession } from "./wallet-sessions";

export type KycRecord = typeof kycRecords.$inferSelect;
type KycStatusView = "not_started" | "pending" | "approved" | "rejected";

export interface KycView {
  status: KycStatusView;
  /** Present while not approved: the provider's hosted KYC page and its terms. */
  kycLink?: string;
  termsLink?: string;
}

/** How long a pending record's status is trusted before a read asks the provider again. */
const PENDING_REFRESH_MS = 60_000;

export function kycView(record: KycRecord | undefined): KycView {
  if (!record) return { status: "not_started" };
  const status = record.status as KycStatusView;
  if (status === "approved") return { status };
  return {
    status,
    ...(record.kycLink ? { kycLink: record.kycLink } : {}),
    ...(record.termsLink ? { termsLink: record.termsLink } : {}),
  };
}

/**
 * Records that the user proved `email` (inside the verifying transaction). Mock mode with
 * auto-approval approves at once; otherwise the record keeps its status (a new one is `pending`)
 * until the provider decides.
 */
export async function recordVerifiedEmail(
  tx: Database,
  ctx: PartnerContext<IdentityServices>,
  userAddress: string,
  email: string,
): Promise<KycRecord> {
  const now = ctx.clock.now();
  const autoApprove = ctx.config.MODE === "mock" && ctx.config.MOCK_KYC_AUTO_APPROVE;
  const [record] = await tx
    .insert(kycRecords)
    .values({
      id: newId("kyc", ctx.clock),
      organizationId: ctx.caller.organizationId,
      integrationId: ctx.caller.integrationId,
      userAddress,
      email,
      emailVerifiedAt: now,
      status: autoApprove ? "approved" : "pending",
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoUpdate({
      target: [kycRecords.integrationId, kycRecords.userAddress],
      set: {
        email,
        emailVerifiedAt: now,
        updatedAt: now,
        ...(autoApprove ? { status: "approved" } : {}),
      },
    })
    .returning();
  if (!record) throw new Error("the KYC record was not written");
  return record;
}

/**
 * Makes sure a record not yet approved is known to the KYC provider with its verified email, and
 * holds the provider's links. Idempotent at the provider (the record id is its external id), so a
 * retried verify or a second email repeats it harmlessly.
 */
export async function linkAtProvider(ctx: IdentityServices, record: KycRecord): Promise<KycRecord> {
  if (record.status === "approved") return record;
  const provider = ctx.providers.identity.kyc;
  if (!provider) throw new ApiError("PROVIDER_UNAVAILABLE", { detail: "(no KYC provider is configured)" });
  const customer = await askProvider(() =>
    provider.linksFor({ externalId: record.id, email: record.email, walletAddress: record.userAddress }),
  );
  const now = ctx.clock.now();
  try {
    const [linked] = await ctx.db
      .update(kycRecords)
      .set({
        providerCustomerId: customer.customerId,
        kycLink: customer.kycLink,
        termsLink: customer.termsLink,
        // A callback may have decided meanwhile; the provider's answer never undoes a decision.
        status: sql`case when ${kycRecords.status} in ('approved', 'rejected') then ${kycRecords.status} else ${providerStatus(customer.status)} end`,
        providerUpdatedAt: knownAsOf(now),
        updatedAt: now,
      })
      .where(eq(kycRecords.id, record.id))
      .returning();
    return linked ?? record;
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // The contract gives one customer per external id; one shared by two records is the provider's fault.
    ctx.log.error("kyc provider returned a customer already linked to another record", {
      recordId: record.id,
    });
    throw new ApiError("PROVIDER_UNAVAILABLE", { detail: "(the KYC provider answered inconsistently)" });
  }
}

/** The user's KYC for a caller holding the user's wallet session (GET …/kyc). */
export async function readWalletKyc(
  ctx: PartnerContext<IdentityServices>,
  input: { userAddress: string; walletSession?: string | undefined },
): Promise<KycView> {
  await assertWalletSession(ctx, input.walletSession, input.userAddress);
  return readKyc(ctx, input.userAddress);
}

/**
 * The caller integration's view of a user; an unknown user, or another tenant's, is `not_started`.
 * Callers prove the wallet first (readWalletKyc, createPayout).
 */
export async function readKyc(ctx: PartnerContext<IdentityServices>, userAddress: string): Promise<KycView> {
  const [record] = await ctx.db
    .select()
    .from(kycRecords)
    .where(
      and(eq(kycRecords.integrationId, ctx.caller.integrationId), eq(kycRecords.userAddress, userAddress)),
    );
  if (!record) return kycView(undefined);
  return kycView(await refreshPending(ctx, record));
}

/**
 * A pending record's status, asked of the provider at most once a minute, so a lost callback delays
 * a decision without losing it. A provider that does not answer leaves the stored status standing.
 */
async function refreshPending(ctx: IdentityServices, record: KycRecord): Promise<KycRecord> {
  const provider = ctx.providers.identity.kyc;
  if (record.status !== "pending" || !record.providerCustomerId || !provider) return record;
  if (ctx.clock.now().getTime() - record.updatedAt.getTime() < PENDING_REFRESH_MS) return record;
  try {
    const customer = await provider.statusOf(record.providerCustomerId);
    const [refreshed] = await ctx.db
      .update(kycRecords)
      .set({
        status: providerStatus(customer.status),
        kycLink: customer.kycLink,
        termsLink: customer.termsLink,
        providerUpdatedAt: knownAsOf(ctx.clock.now()),
        updatedAt: ctx.clock.now(),
      })
      .where(and(eq(kycRecords.id, record.id), eq(kycRecords.status, "pending")))
      .returning();
    return refreshed ?? record;
  } catch (error) {
    if (!(error instanceof ProviderFailure)) throw error;
    ctx.log.warn("kyc status refresh failed", { recordId: record.id, reason: error.message });
    return record;
  }
}

/**
 * A signed callback from the provider: the record it names takes the status it reports, unless the
 * record already knows a later state, from an earlier callback or from asking the provider (which
 * tells the state as of the moment it was asked). On a tie a decision beats `pending`. Replays and
 * late arrivals change nothing.
 */
export async function applyKycCallback(
  ctx: IdentityServices,
  callback: KycCallback,
): Promise<{ applied: boolean }> {
  const reportedAt = new Date(callback.updatedAt);
  const year = reportedAt.getUTCFullYear();
  if (Number.isNaN(year) || year < 2000 || year > 9999) {
    ctx.log.warn("kyc callback with an implausible time ignored", { customerId: callback.customerId });
    return { applied: false };
  }
  const reported = reportedAt.toISOString();
  const decision = callback.status !== "pending";
  const updated = await ctx.db
    .update(kycRecords)
    .set({ status: callback.status, providerUpdatedAt: reportedAt, updatedAt: ctx.clock.now() })
    .where(
      and(
        eq(kycRecords.providerCustomerId, callback.customerId),
        eq(kycRecords.id, callback.externalId),
        decision
          ? sql`(${kycRecords.providerUpdatedAt} is null or ${kycRecords.providerUpdatedAt} < ${reported} or (${kycRecords.providerUpdatedAt} = ${reported} and ${kycRecords.status} = 'pending'))`
          : sql`(${kycRecords.providerUpdatedAt} is null or ${kycRecords.providerUpdatedAt} < ${reported})`,
      ),
    )
    .returning({ id: kycRecords.id });
  if (updated.length === 0) {
    ctx.log.info("kyc callback changed nothing", {
      customerId: callback.customerId,
      status: callback.status,
    });
  }
  return { applied: updated.length > 0 };
}

/**
 * What the service learned by asking the provider holds as of the asking: an older callback must not
 * undo it, a later one may.
 */
function knownAsOf(now: Date) {
  return sql`greatest(${kycRecords.providerUpdatedAt}, ${now.toISOString()}::timestamptz)`;
}

/** The provider's `not_started` means it has the customer but no submission yet: pending for us. */
function providerStatus(status: string): "pending" | "approved" | "rejected" {
  return status === "approved" || status === "rejected" ? status : "pending";
}

async function askProvider<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof ProviderFailure) {
      throw new ApiError("PROVIDER_UNAVAILABLE", { detail: "(the KYC provider did not answer)" });
    }
    throw error;
  }
}
