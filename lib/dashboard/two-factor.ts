import { and, eq, isNull, ne } from "drizzle-orm";
import { dashboardSessions, organizationMembers } from "../../schema";
import type { ServiceContext } from "../kernel/context";
import type { Database } from "../kernel/db/database";
import { ApiError } from "../kernel/errors/api-error";
import {
  type ActingMember,
  assertMemberMay,
  insufficientRole,
  lockedActiveMember,
  type OrganizationMember,
} from "../tenancy/members";
import { getOrganization, updateOrganization } from "../tenancy/organizations";
import { mayManage } from "../tenancy/roles";
import { type DashboardMember, type NewSession, startSession } from "./sessions";
import {
  auditTwoFactor,
  checkCode,
  replaceRecoveryCodes,
  unusedRecoveryCodes,
  voidRecoveryCodes,
} from "./two-factor-check";
import { newTotpSecret, openTotpSecret, sealTotpSecret, totpStep, totpUri } from "./two-factor-codes";

/** What the enrolment page shows: the secret for typing and the URI the QR code carries. */
export interface Enrollment {
  secret: string;
  uri: string;
}

/**
 * Starts (or restarts) setting up an authenticator app: a new secret, sealed on the member's row
 * but not in use until `confirmEnrollment` gets a code from it. A member who has one already must
 * turn it off first.
 */
export async function startEnrollment(ctx: ServiceContext, member: DashboardMember): Promise<Enrollment> {
  if (member.twoFactorEnabled) throw alreadyEnabled();
  const secret = newTotpSecret();
  await ctx.db
    .update(organizationMembers)
    .set({ totpSecret: await sealTotpSecret(ctx.config, secret, member.memberId) })
    .where(and(eq(organizationMembers.id, member.memberId), isNull(organizationMembers.totpEnabledAt)));
  return { secret, uri: totpUri(secret, member.email) };
}

/** The enrolment in progress, to show again after a wrong code; undefined when none was started. */
export async function pendingEnrollment(
  ctx: ServiceContext,
  member: DashboardMember,
): Promise<Enrollment | undefined> {
  const [row] = await ctx.db
    .select({ sealed: organizationMembers.totpSecret, enabledAt: organizationMembers.totpEnabledAt })
    .from(organizationMembers)
    .where(eq(organizationMembers.id, member.memberId));
  if (!row?.sealed || row.enabledAt) return undefined;
  const secret = await openTotpSecret(ctx.config, row.sealed, member.memberId);
  return { secret, uri: totpUri(secret, member.email) };
}

/**
 * A code from the new secret turns two-factor on: this session counts as verified, the member's
 * other sessions end (whoever held one must give the new factor), and ten recovery codes are made
 * and answered once (only their HMACs are kept).
 */
export async function confirmEnrollment(
  ctx: ServiceContext,
  member: DashboardMember,
  code: string,
): Promise<{ recoveryCodes: string[] }> {
  return ctx.db.transaction(async (tx) => {
    const row = await lockedActiveMember(tx, member.organizationId, member.memberId);
    if (row.totpEnabledAt) throw alreadyEnabled();
    if (!row.totpSecret) throw new ApiError("TWO_FACTOR_CODE_INVALID", { detail: notStarted });
    const step = totpStep(await openTotpSecret(ctx.config, row.totpSecret, row.id), code, ctx.clock.now());
    if (step === undefined) throw new ApiError("TWO_FACTOR_CODE_INVALID");
    const now = ctx.clock.now();
    await tx
      .update(organizationMembers)
      .set({ totpEnabledAt: now, totpLastStep: step })
      .where(eq(organizationMembers.id, row.id));
    await tx
      .update(dashboardSessions)
      .set({ twoFactorAt: now })
      .where(eq(dashboardSessions.id, member.sessionId));
    await endOtherSessions(tx, row.id, member.sessionId, now);
    const recoveryCodes = await replaceRecoveryCodes(ctx, tx, row.id);
    await auditTwoFactor(ctx, tx, row, "member.two_factor_enabled", { before: false, after: true });
    return { recoveryCodes };
  });
}

export type SecondFactorOutcome =
  | { ok: true; session: NewSession; usedRecoveryCode: boolean; recoveryCodesLeft: number }
  | { ok: false; error: ApiError; sessionEnded: boolean };

/**
 * The sign-in's second step: a code from the app or an unused recovery code (`checkCode`). The
 * verified session is a new one (a new id and token, so a cookie someone planted or saw before the
 * second factor opens nothing after it); the one that asked ends.
 */
export async function verifySecondFactor(
  ctx: ServiceContext,
  member: DashboardMember,
  code: string,
): Promise<SecondFactorOutcome> {
  const outcome = await ctx.db.transaction(async (tx): Promise<SecondFactorOutcome> => {
    const row = await lockedActiveMember(tx, member.organizationId, member.memberId);
    const checked = await checkCode(ctx, tx, row, member.sessionId, code, { recoveryCodes: true });
    if (!checked.ok) return checked;
    const now = ctx.clock.now();
    await tx
      .update(dashboardSessions)
      .set({ revokedAt: now })
      .where(eq(dashboardSessions.id, member.sessionId));
    const session = await startSession(tx, ctx, member, { twoFactorAt: now });
    return {
      ok: true,
      session,
      usedRecoveryCode: checked.usedRecoveryCode,
      recoveryCodesLeft: await unusedRecoveryCodes(tx, row.id),
    };
  });
  if (outcome.ok) {
    ctx.log.info("dashboard second factor given", {
      memberId: member.memberId,
      recoveryCode: outcome.usedRecoveryCode,
    });
  }
  return outcome;
}

/**
 * Turns the member's own two-factor off, with a current code from the app, in a session that gave
 * its second factor: refused while the organization requires it (an owner or admin can reset it
 * instead, when the phone is lost). The member's other sessions end.
 */
export async function disableTwoFactor(
  ctx: ServiceContext,
  member: DashboardMember,
  code: string,
): Promise<void> {
  await withCheckedCode(ctx, member, code, async (tx, row) => {
    const organization = await getOrganization({ ...ctx, db: tx }, row.organizationId);
    if (organization.requireTwoFactor) return new ApiError("TWO_FACTOR_REQUIRED");
    const now = ctx.clock.now();
    await clearTwoFactor(tx, row.id, now);
    await endOtherSessions(tx, row.id, member.sessionId, now);
    await auditTwoFactor(ctx, tx, row, "member.two_factor_disabled", { before: true, after: false });
    return undefined;
  });
}

/**
 * A new set of ten recovery codes for a current code from the app; the old set opens nothing more
 * and the member's other sessions end.
 */
export async function regenerateRecoveryCodes(
  ctx: ServiceContext,
  member: DashboardMember,
  code: string,
): Promise<{ recoveryCodes: string[] }> {
  let recoveryCodes: string[] = [];
  await withCheckedCode(ctx, member, code, async (tx, row) => {
    recoveryCodes = await replaceRecoveryCodes(ctx, tx, row.id);
    await endOtherSessions(tx, row.id, member.sessionId, ctx.clock.now());
    await auditTwoFactor(ctx, tx, row, "member.recovery_codes_regenerated");
    return undefined;
  });
  return { recoveryCodes };
}

/**
 * For a member who lost their phone and recovery codes: an owner or admin (an admin not for an
 * owner; nobody for themself, who turns it off on the security page with a code) or the operator
 * turns that member's two-factor off and ends their sessions. Where the organization requires
 * two-factor, their next sign-in sets it up again.
 */
export async function resetTwoFactor(
  ctx: ServiceContext,
  organizationId: string,
  memberId: string,
  by?: ActingMember,
): Promise<OrganizationMember> {
  if (by?.memberId === memberId) {
    throw new ApiError("INSUFFICIENT_ROLE", {
      detail: {
        es: "Tu propio inicio de sesión en dos pasos se desactiva en Seguridad, con un código de la app.",
        en: "Your own two-factor sign-in is turned off on the Security page, with a code from the app.",
      },
    });
  }
  return ctx.db.transaction(async (tx) => {
    const row = await lockedActiveMember(tx, organizationId, memberId);
    if (by && !mayManage(by.role, row.role)) throw insufficientRole("members:write");
    const reset = { ...row, totpSecret: null, totpEnabledAt: null, totpLastStep: null };
    if (!row.totpEnabledAt && !row.totpSecret) return reset;
    const now = ctx.clock.now();
    await clearTwoFactor(tx, row.id, now);
    await endOtherSessions(tx, row.id, undefined, now);
    await auditTwoFactor(ctx, tx, row, "member.two_factor_reset", {
      before: row.totpEnabledAt !== null,
      after: false,
    });
    return reset;
  });
}

/**
 * An owner requires (or stops requiring) two-factor sign-in of every member, from a session that
 * gave its own second factor: an owner who has not set it up can neither lift the requirement nor
 * turn it on (so the setting never locks out the person turning it on).
 */
export async function setTwoFactorRequirement(
  ctx: ServiceContext,
  member: DashboardMember,
  required: boolean,
): Promise<void> {
  assertMemberMay(member.role, "security:write");
  if (!member.twoFactorEnabled || member.stage !== "full") {
    throw new ApiError("TWO_FACTOR_REQUIRED", {
      detail: {
        es: "Activa primero tu propio inicio de sesión en dos pasos.",
        en: "Turn on your own two-factor sign-in first.",
      },
    });
  }
  await updateOrganization(ctx, member.organizationId, { requireTwoFactor: required });
}

/**
 * A change to the member's own two-factor, allowed by a current code from the app (`checkCode`,
 * wrong ones counted). `change` answers an error to refuse after the code was right. The count of a
 * wrong code must survive the refusal, so the transaction returns errors and they are thrown after
 * it commits.
 */
async function withCheckedCode(
  ctx: ServiceContext,
  member: DashboardMember,
  code: string,
  change: (tx: Database, row: OrganizationMember) => Promise<ApiError | undefined>,
): Promise<void> {
  const refusal = await ctx.db.transaction(async (tx) => {
    const row = await lockedActiveMember(tx, member.organizationId, member.memberId);
    if (!row.totpEnabledAt) return new ApiError("TWO_FACTOR_CODE_INVALID", { detail: notStarted });
    const checked = await checkCode(ctx, tx, row, member.sessionId, code, { recoveryCodes: false });
    if (!checked.ok) return checked.error;
    const refused = await change(tx, row);
    if (refused) throw refused;
    return undefined;
  });
  if (refusal) throw refusal;
}

/** Every session of the member but `keep` ends: a change to their second factor holds everywhere at once. */
async function endOtherSessions(
  tx: Database,
  memberId: string,
  keep: string | undefined,
  now: Date,
): Promise<void> {
  await tx
    .update(dashboardSessions)
    .set({ revokedAt: now })
    .where(
      and(
        eq(dashboardSessions.memberId, memberId),
        isNull(dashboardSessions.revokedAt),
        keep ? ne(dashboardSessions.id, keep) : undefined,
      ),
    );
}

async function clearTwoFactor(tx: Database, memberId: string, now: Date): Promise<void> {
  await tx
    .update(organizationMembers)
    .set({ totpSecret: null, totpEnabledAt: null, totpLastStep: null })
    .where(eq(organizationMembers.id, memberId));
  await voidRecoveryCodes(tx, memberId, now);
}

function alreadyEnabled(): ApiError {
  return new ApiError("INVALID_REQUEST", {
    detail: {
      es: "El inicio de sesión en dos pasos ya está activo: desactívalo antes de configurarlo de nuevo.",
      en: "Two-factor sign-in is already on: turn it off before setting it up again.",
    },
  });
}

const notStarted = {
  es: "Primero inicia la configuración de la app de autenticación.",
  en: "Start setting up the authenticator app first.",
};
