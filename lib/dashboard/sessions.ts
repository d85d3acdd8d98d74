import { and, eq, gt, isNull } from "drizzle-orm";
import { dashboardSessions, organizationMembers, organizations } from "../../schema";
import { equalStrings } from "../kernel/constant-time";
import type { ServiceContext } from "../kernel/context";
import type { Database } from "../kernel/db/database";
import { newId } from "../kernel/ids";
import { randomToken, tokenHash } from "../kernel/secret-token";

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

/** Who a valid session cookie stands for. */
export interface DashboardMember {
  sessionId: string;
  memberId: string;
  email: string;
  organizationId: string;
  organizationName: string;
  expiresAt: Date;
}

export async function startSession(
  db: Database,
  ctx: ServiceContext,
  membership: Membership,
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
      organizationId: organizations.id,
      organizationName: organizations.name,
      expiresAt: dashboardSessions.expiresAt,
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
  const { tokenHash: _stored, ...member } = row;
  return member;
}

/** Signing out: the session opens nothing afterwards, whoever holds its cookie. */
export async function endSession(ctx: ServiceContext, sessionId: string): Promise<void> {
  await ctx.db
    .update(dashboardSessions)
    .set({ revokedAt: ctx.clock.now() })
    .where(and(eq(dashboardSessions.id, sessionId), isNull(dashboardSessions.revokedAt)));
  ctx.log.info("dashboard session ended", { sessionId });
}
