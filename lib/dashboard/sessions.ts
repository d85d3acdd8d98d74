import { and, eq, gt, isNull } from "drizzle-orm";
import { dashboardSessions, organizationMembers, organizations } from "../../schema";
import { equalStrings } from "../kernel/constant-time";
import type { ServiceContext } from "../kernel/context";
import type { Database } from "../kernel/db/database";
import { newId } from "../kernel/ids";
import { randomToken, tokenHash } from "../kernel/secret-token";
import type { MemberRole } from "../tenancy/roles";

/** A member's seat in one organization, as sign-in offers it. */
export interface Membership {
  memberId: string;
  organizationId: string;
  organizationName: string;
}

const SESSION_TTL_MS = 12 * 60 * 60_000;

/** A session just started: `cookieValue` goes in the (signed) cookie and is never stored. */
export interface NewSession {
  id: string;
  cookieValue: string;
  expiresAt: Date;
}

/**
 * Where a session stands on two-factor sign-in: `verify` until a member who has a second factor
 * gives it; `enroll` while the organization requires one the member has not set up; else `full`.
 * Only `full` opens the dashboard; the others reach only their own page and sign-out.
 */
type SessionStage = "verify" | "enroll" | "full";

/** Who a valid session cookie stands for. */
export interface DashboardMember {
  sessionId: string;
  memberId: string;
  email: string;
  role: MemberRole;
  organizationId: string;
  organizationName: string;
  expiresAt: Date;
  twoFactorEnabled: boolean;
  requireTwoFactor: boolean;
  stage: SessionStage;
}

/** A new session for the membership; `twoFactorAt` when it starts with its second factor given. */
export async function startSession(
  db: Database,
  ctx: ServiceContext,
  membership: Membership,
  options: { twoFactorAt?: Date } = {},
): Promise<NewSession> {
  const now = ctx.clock.now();
  const id = newId("dss", ctx.clock);
  const token = randomToken();
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
  await db.insert(dashboardSessions).values({
    id,
    tokenHash: tokenHash(token),
    memberId: membership.memberId,
    organizationId: membership.organizationId,
    createdAt: now,
    expiresAt,
    twoFactorAt: options.twoFactorAt ?? null,
  });
  ctx.log.info("dashboard session started", { sessionId: id, memberId: membership.memberId });
  return { id, cookieValue: `${id}.${token}`, expiresAt };
}

/**
 * The member a cookie value stands for, while the session is unexpired and unrevoked and the member
 * still active: revoking a member ends their sessions at once.
 */
export async function readSession(
  ctx: ServiceContext,
  cookieValue: string,
): Promise<DashboardMember | undefined> {
  const [id, token] = cookieValue.split(".");
  if (!id || !token) return undefined;
  const [row] = await ctx.db
    .select({
      sessionId: dashboardSessions.id,
      tokenHash: dashboardSessions.tokenHash,
      memberId: organizationMembers.id,
      email: organizationMembers.email,
      role: organizationMembers.role,
      organizationId: organizations.id,
      organizationName: organizations.name,
      expiresAt: dashboardSessions.expiresAt,
      totpEnabledAt: organizationMembers.totpEnabledAt,
      twoFactorAt: dashboardSessions.twoFactorAt,
      requireTwoFactor: organizations.requireTwoFactor,
    })
    .from(dashboardSessions)
    .innerJoin(organizationMembers, eq(organizationMembers.id, dashboardSessions.memberId))
    .innerJoin(organizations, eq(organizations.id, dashboardSessions.organizationId))
    .where(
      and(
        eq(dashboardSessions.id, id),
        isNull(dashboardSessions.revokedAt),
        gt(dashboardSessions.expiresAt, ctx.clock.now()),
        isNull(organizationMembers.revokedAt),
      ),
    );
  if (!row || !equalStrings(tokenHash(token), row.tokenHash)) return undefined;
  const { tokenHash: _stored, totpEnabledAt, twoFactorAt, ...member } = row;
  const twoFactorEnabled = totpEnabledAt !== null;
  // Read on every request: requiring two-factor, or a member turning it on, takes effect at once.
  const stage: SessionStage =
    twoFactorEnabled && !twoFactorAt
      ? "verify"
      : !twoFactorEnabled && row.requireTwoFactor
        ? "enroll"
        : "full";
  return { ...member, twoFactorEnabled, stage };
}

/** Signing out: the session opens nothing afterwards, whoever holds its cookie. */
export async function endSession(ctx: ServiceContext, sessionId: string): Promise<void> {
  await ctx.db
    .update(dashboardSessions)
    .set({ revokedAt: ctx.clock.now() })
    .where(and(eq(dashboardSessions.id, sessionId), isNull(dashboardSessions.revokedAt)));
  ctx.log.info("dashboard session ended", { sessionId });
}
