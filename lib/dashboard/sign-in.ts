import { and, asc, desc, eq, gt, isNull, sql } from "drizzle-orm";
import { dashboardSignInCodes, organizationMembers, organizations } from "../../schema";
import { isEmail, maskedEmail, normalizedEmail } from "../identity/identity-input";
import {
  assertMaySend,
  OTP_MAX_ATTEMPTS,
  OTP_TTL_MS,
  otpHash,
  randomSixDigitCode,
  sendsCountedSince,
  wrongCodeError,
} from "../identity/otp-code";
import type { IdentityServices } from "../identity/ports";
import { equalStrings } from "../kernel/constant-time";
import type { Database } from "../kernel/db/database";
import { ApiError } from "../kernel/errors/api-error";
import { newId } from "../kernel/ids";
import { ProviderFailure } from "../kernel/provider-failure";
import { type Membership, type NewSession, startSession } from "./sessions";
import { signInEmail } from "./sign-in-email";

/** Codes one email may be sent per hour, whichever browsers asked: bounds what anyone can mail it. */
const SIGN_IN_SENDS_PER_EMAIL_PER_HOUR = 30;
/** Wrong codes one email may take in 24 h, across codes and browsers, before sign-in is locked. */
const SIGN_IN_FAILURES_PER_DAY = 20;
const DAY_MS = 24 * 60 * 60_000;

/**
 * Emails a sign-in code to `email` when it belongs to an active member, and answers the same either
 * way, so the form tells nobody who is a member: a code row is written for every email, member or
 * not, so the throttles answer alike too. The email goes out after the commit as `mailing`, which
 * the caller lets finish after its answer (so the answer's time does not tell members apart either);
 * it never rejects, its failure only logged. The code is good only in the asking `browser`, and supersedes only that browser's earlier
 * codes: someone else asking for the same email cannot void the member's code. Throttles: one send
 * per 30 s and ten per hour per email and browser, thirty per hour per email in all. The code is
 * random in every mode: the dashboard shows real data even in mock mode, so there is no debug code.
 */
export async function sendSignInCode(
  ctx: IdentityServices,
  input: { email: string; browser: string },
): Promise<{ mailing: Promise<void> }> {
  if (!isEmail(input.email)) throw new ApiError("INVALID_EMAIL");
  const email = normalizedEmail(input.email);
  const now = ctx.clock.now();
  const code = randomSixDigitCode();
  const member = await ctx.db.transaction(async (tx) => {
    // Two sends for one email must not both pass the throttle: they take turns on this lock.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`dashboard-sign-in:${email}`}, 0))`);
    const recent = await tx
      .select({ createdAt: dashboardSignInCodes.createdAt, browserHash: dashboardSignInCodes.browserHash })
      .from(dashboardSignInCodes)
      .where(
        and(
          eq(dashboardSignInCodes.email, email),
          gt(dashboardSignInCodes.createdAt, sendsCountedSince(now)),
        ),
      )
      .orderBy(desc(dashboardSignInCodes.createdAt));
    assertMaySend(
      recent.filter((row) => row.browserHash === input.browser).map((row) => row.createdAt),
      now,
    );
    const oldestCounted = recent[SIGN_IN_SENDS_PER_EMAIL_PER_HOUR - 1]?.createdAt;
    if (oldestCounted) {
      throw new ApiError("OTP_SEND_LIMIT_REACHED", {
        retryAfterSeconds: (oldestCounted.getTime() + 60 * 60_000 - now.getTime()) / 1000,
      });
    }
    await tx
      .update(dashboardSignInCodes)
      .set({ supersededAt: now })
      .where(
        and(
          eq(dashboardSignInCodes.email, email),
          eq(dashboardSignInCodes.browserHash, input.browser),
          isNull(dashboardSignInCodes.supersededAt),
        ),
      );
    const id = newId("dsc", ctx.clock);
    await tx.insert(dashboardSignInCodes).values({
      id,
      email,
      browserHash: input.browser,
      codeHash: await otpHash(ctx.config, id, code),
      createdAt: now,
      expiresAt: new Date(now.getTime() + OTP_TTL_MS),
    });
    return (await activeMemberships(tx, email)).length > 0;
  });
  return { mailing: member ? mailCode(ctx, email, code) : Promise.resolve() };
}

/** Best effort: a failure is logged, never answered, or the answer would tell members apart. */
async function mailCode(ctx: IdentityServices, email: string, code: string): Promise<void> {
  const sender = ctx.providers.identity.email;
  if (!sender) {
    ctx.log.warn("dashboard sign-in code not sent: no email provider", { to: maskedEmail(email) });
    return;
  }
  try {
    const { id } = await sender.send({ to: email, ...signInEmail(code) });
    ctx.log.info("dashboard sign-in code sent", { to: maskedEmail(email), emailId: id });
  } catch (error) {
    ctx.log.error("dashboard sign-in email failed", {
      to: maskedEmail(email),
      reason: error instanceof ProviderFailure ? error.message : "unexpected failure",
    });
  }
}

export type SignInOutcome =
  | { kind: "session"; session: NewSession }
  | { kind: "choose"; codeId: string; memberships: Membership[] };

type Checked = { ok: true; codeId: string } | { ok: false; error: ApiError };

/**
 * Checks a code against the latest one sent to `email` for this `browser`, with the miniapp's limits
 * (ten minutes, five tries, the fifth wrong one locks it), and at most twenty wrong codes for the
 * email in 24 h whatever the code or browser (new codes do not buy new guesses). The right code
 * starts a session at once for an email in one organization; an email in several gets the list to
 * choose from (`chooseOrganization`). A right code for an email that is no member (any more) is
 * refused like a wrong one.
 */
export async function verifySignInCode(
  ctx: IdentityServices,
  input: { email: string; code: string; browser: string },
): Promise<SignInOutcome> {
  if (!isEmail(input.email)) throw new ApiError("INVALID_EMAIL");
  const email = normalizedEmail(input.email);
  const now = ctx.clock.now();
  // A wrong try must be counted even though the request fails, so the transaction returns the
  // error instead of throwing it (a throw would roll the count back).
  const checked = await ctx.db.transaction(async (tx): Promise<Checked> => {
    // Tries for one email take turns, so the daily count of wrong ones is exact.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`dashboard-sign-in:${email}`}, 0))`);
    const failures = await wrongTriesSince(tx, email, new Date(now.getTime() - DAY_MS));
    if (failures.count >= SIGN_IN_FAILURES_PER_DAY) {
      const retryAfterSeconds = Math.max(
        1,
        ((failures.oldest?.getTime() ?? now.getTime()) + DAY_MS - now.getTime()) / 1000,
      );
      return { ok: false, error: new ApiError("OTP_LOCKED", { retryAfterSeconds }) };
    }
    const [row] = await tx
      .select()
      .from(dashboardSignInCodes)
      .where(and(eq(dashboardSignInCodes.email, email), eq(dashboardSignInCodes.browserHash, input.browser)))
      .orderBy(desc(dashboardSignInCodes.createdAt))
      .limit(1);
    if (!row || row.usedAt) return { ok: false, error: new ApiError("OTP_NOT_FOUND") };
    if (row.attempts >= OTP_MAX_ATTEMPTS) return { ok: false, error: new ApiError("OTP_LOCKED") };
    if (now >= row.expiresAt) return { ok: false, error: new ApiError("OTP_EXPIRED") };
    const right = equalStrings(await otpHash(ctx.config, row.id, input.code.trim()), row.codeHash);
    const attempts = row.attempts + 1;
    await tx
      .update(dashboardSignInCodes)
      .set({ attempts, ...(right ? { verifiedAt: row.verifiedAt ?? now } : {}) })
      .where(eq(dashboardSignInCodes.id, row.id));
    if (right) return { ok: true, codeId: row.id };
    return { ok: false, error: wrongCodeError(attempts) };
  });
  if (!checked.ok) throw checked.error;
  const memberships = await activeMemberships(ctx.db, email);
  const only = memberships[0];
  if (!only) throw new ApiError("OTP_INVALID");
  if (memberships.length > 1) return { kind: "choose", codeId: checked.codeId, memberships };
  return { kind: "session", session: await useCode(ctx, checked.codeId, email, only.memberId) };
}

/**
 * The second step for an email in several organizations: a verified, unused, unexpired code and an
 * active membership of that email start the session. Anything else is OTP_NOT_FOUND (start again).
 */
export async function chooseOrganization(
  ctx: IdentityServices,
  input: { codeId: string; memberId: string },
): Promise<NewSession> {
  const [row] = await ctx.db
    .select()
    .from(dashboardSignInCodes)
    .where(eq(dashboardSignInCodes.id, input.codeId));
  if (!row?.verifiedAt || row.usedAt || ctx.clock.now() >= row.expiresAt) throw new ApiError("OTP_NOT_FOUND");
  return useCode(ctx, row.id, row.email, input.memberId);
}

/** Marks the code used and starts the session, once: a second use of the code finds it used. */
async function useCode(
  ctx: IdentityServices,
  codeId: string,
  email: string,
  memberId: string,
): Promise<NewSession> {
  return ctx.db.transaction(async (tx) => {
    const [used] = await tx
      .update(dashboardSignInCodes)
      .set({ usedAt: ctx.clock.now() })
      .where(and(eq(dashboardSignInCodes.id, codeId), isNull(dashboardSignInCodes.usedAt)))
      .returning({ id: dashboardSignInCodes.id });
    const membership = (await activeMemberships(tx, email)).find((m) => m.memberId === memberId);
    if (!used || !membership) throw new ApiError("OTP_NOT_FOUND");
    return startSession(tx, ctx, membership);
  });
}

/** Wrong codes given for `email` since `since` (a right try, counted in `attempts` too, is not one). */
async function wrongTriesSince(
  db: Database,
  email: string,
  since: Date,
): Promise<{ count: number; oldest?: Date }> {
  const [row] = await db
    .select({
      count: sql<number>`coalesce(sum(${dashboardSignInCodes.attempts} - case when ${dashboardSignInCodes.verifiedAt} is null then 0 else 1 end), 0)::int`,
      oldest: sql<Date | null>`min(${dashboardSignInCodes.createdAt}) filter (where ${dashboardSignInCodes.attempts} > 0)`,
    })
    .from(dashboardSignInCodes)
    .where(and(eq(dashboardSignInCodes.email, email), gt(dashboardSignInCodes.createdAt, since)));
  const oldest = row?.oldest ? new Date(row.oldest) : undefined;
  return { count: Number(row?.count ?? 0), ...(oldest ? { oldest } : {}) };
}

/** The email's active memberships, with their organizations' names, oldest first. */
async function activeMemberships(db: Database, email: string): Promise<Membership[]> {
  return db
    .select({
      memberId: organizationMembers.id,
      organizationId: organizationMembers.organizationId,
      organizationName: organizations.name,
    })
    .from(organizationMembers)
    .innerJoin(organizations, eq(organizations.id, organizationMembers.organizationId))
    .where(and(eq(organizationMembers.email, email), isNull(organizationMembers.revokedAt)))
    .orderBy(asc(organizationMembers.id));
}
