import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { dashboardSessions, memberRecoveryCodes, organizationMembers } from "../../schema";
import type { AuditAction } from "../audit/actions";
import { recordAudit } from "../audit/record";
import { equalStrings } from "../kernel/constant-time";
import type { ServiceContext } from "../kernel/context";
import type { Database } from "../kernel/db/database";
import { ApiError } from "../kernel/errors/api-error";
import { newId } from "../kernel/ids";
import type { OrganizationMember } from "../tenancy/members";
import {
  newRecoveryCode,
  openTotpSecret,
  RECOVERY_CODE_COUNT,
  recoveryCodeHash,
  totpStep,
} from "./two-factor-codes";

/**
 * What every two-factor verb stands on (two-factor.ts): checking a code with its limits, the member's
 * recovery codes as stored, and the audit entry of a change.
 */

/** Wrong codes one session may take before it ends (sign in again by email). */
const FAILURES_PER_SESSION = 5;
/** Wrong codes a member may take in 24 h across sessions before second factors are locked. */
const FAILURES_PER_DAY = 10;
const DAY_MS = 24 * 60 * 60_000;

export type Checked =
  | { ok: true; usedRecoveryCode: boolean }
  | { ok: false; error: ApiError; sessionEnded: boolean };

/**
 * Checks a second factor under the member's lock: a code from the app for a step later than the
 * last one used (a code never opens two things), or, where `recoveryCodes`, an unused recovery code.
 * A wrong code is counted on the session: five end it; ten in 24 h across the member's sessions
 * lock every check for the rest of the day (OTP_LOCKED), whichever page asks.
 */
export async function checkCode(
  ctx: ServiceContext,
  tx: Database,
  row: OrganizationMember,
  sessionId: string,
  code: string,
  options: { recoveryCodes: boolean },
): Promise<Checked> {
  const now = ctx.clock.now();
  const failures = await failuresSince(tx, row.id, new Date(now.getTime() - DAY_MS));
  if (failures.count >= FAILURES_PER_DAY) {
    const retryAfterSeconds = Math.max(
      1,
      ((failures.oldest ?? now).getTime() + DAY_MS - now.getTime()) / 1000,
    );
    return { ok: false, error: new ApiError("OTP_LOCKED", { retryAfterSeconds }), sessionEnded: false };
  }
  const step = row.totpSecret
    ? totpStep(await openTotpSecret(ctx.config, row.totpSecret, row.id), code, now)
    : undefined;
  if (step !== undefined && step > (row.totpLastStep ?? -1)) {
    await tx
      .update(organizationMembers)
      .set({ totpLastStep: step })
      .where(eq(organizationMembers.id, row.id));
    return { ok: true, usedRecoveryCode: false };
  }
  if (options.recoveryCodes && (await useRecoveryCode(ctx, tx, row, code))) {
    return { ok: true, usedRecoveryCode: true };
  }
  const [session] = await tx
    .update(dashboardSessions)
    .set({ twoFactorFailures: sql`${dashboardSessions.twoFactorFailures} + 1` })
    .where(eq(dashboardSessions.id, sessionId))
    .returning({ failures: dashboardSessions.twoFactorFailures });
  const left = FAILURES_PER_SESSION - (session?.failures ?? FAILURES_PER_SESSION);
  if (left <= 0) {
    await tx.update(dashboardSessions).set({ revokedAt: now }).where(eq(dashboardSessions.id, sessionId));
    return { ok: false, error: new ApiError("OTP_LOCKED"), sessionEnded: true };
  }
  const error = new ApiError("TWO_FACTOR_CODE_INVALID", {
    extras: { attemptsLeft: left },
    detail: { es: `Intentos restantes: ${left}.`, en: `Attempts left: ${left}.` },
  });
  return { ok: false, error, sessionEnded: false };
}

/** The audit entry of a change to a member's two-factor: whose, and whether it was on before and after. */
export function auditTwoFactor(
  ctx: ServiceContext,
  tx: Database,
  row: OrganizationMember,
  action: AuditAction,
  change?: { before: boolean; after: boolean },
): Promise<void> {
  return recordAudit(ctx, tx, {
    organizationId: row.organizationId,
    action,
    targetId: row.id,
    before: change ? { email: row.email, twoFactor: change.before } : null,
    after: change ? { email: row.email, twoFactor: change.after } : { email: row.email },
  });
}

export async function replaceRecoveryCodes(
  ctx: ServiceContext,
  tx: Database,
  memberId: string,
): Promise<string[]> {
  const now = ctx.clock.now();
  await voidRecoveryCodes(tx, memberId, now);
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  const rows = await Promise.all(
    codes.map(async (code) => {
      const id = newId("mrc", ctx.clock);
      return { id, memberId, codeHash: await recoveryCodeHash(ctx.config, id, code), createdAt: now };
    }),
  );
  await tx.insert(memberRecoveryCodes).values(rows);
  return codes;
}

export async function voidRecoveryCodes(tx: Database, memberId: string, now: Date): Promise<void> {
  await tx
    .update(memberRecoveryCodes)
    .set({ voidedAt: now })
    .where(
      and(
        eq(memberRecoveryCodes.memberId, memberId),
        isNull(memberRecoveryCodes.usedAt),
        isNull(memberRecoveryCodes.voidedAt),
      ),
    );
}

/** Marks the matching unused recovery code used; its id, or undefined when none matches. */
async function useRecoveryCode(
  ctx: ServiceContext,
  tx: Database,
  row: OrganizationMember,
  code: string,
): Promise<string | undefined> {
  const unused = await tx.select().from(memberRecoveryCodes).where(unusedOf(row.id));
  for (const candidate of unused) {
    if (!equalStrings(await recoveryCodeHash(ctx.config, candidate.id, code), candidate.codeHash)) continue;
    await tx
      .update(memberRecoveryCodes)
      .set({ usedAt: ctx.clock.now() })
      .where(eq(memberRecoveryCodes.id, candidate.id));
    await auditTwoFactor(ctx, tx, row, "member.recovery_code_used");
    return candidate.id;
  }
  return undefined;
}

export async function unusedRecoveryCodes(tx: Database, memberId: string): Promise<number> {
  const [row] = await tx
    .select({ count: sql<number>`count(*)::int` })
    .from(memberRecoveryCodes)
    .where(unusedOf(memberId));
  return Number(row?.count ?? 0);
}

function unusedOf(memberId: string) {
  return and(
    eq(memberRecoveryCodes.memberId, memberId),
    isNull(memberRecoveryCodes.usedAt),
    isNull(memberRecoveryCodes.voidedAt),
  );
}

async function failuresSince(
  tx: Database,
  memberId: string,
  since: Date,
): Promise<{ count: number; oldest?: Date }> {
  const [row] = await tx
    .select({
      count: sql<number>`coalesce(sum(${dashboardSessions.twoFactorFailures}), 0)::int`,
      oldest: sql<Date | null>`min(${dashboardSessions.createdAt}) filter (where ${dashboardSessions.twoFactorFailures} > 0)`,
    })
    .from(dashboardSessions)
    .where(and(eq(dashboardSessions.memberId, memberId), gt(dashboardSessions.createdAt, since)));
  const oldest = row?.oldest ? new Date(row.oldest) : undefined;
  return { count: Number(row?.count ?? 0), ...(oldest ? { oldest } : {}) };
}
