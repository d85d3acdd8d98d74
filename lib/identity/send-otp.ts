import { and, desc, eq, gt, isNull, sql } from "drizzle-orm";
import { brebOtps } from "../../schema";
import type { Database } from "../kernel/db/database";
import { ApiError } from "../kernel/errors/api-error";
import { newId } from "../kernel/ids";
import { ProviderFailure } from "../kernel/provider-failure";
import type { PartnerContext } from "../tenancy/caller";
import { maskedEmail, normalizedEmail } from "./identity-input";
import {
  assertMaySend,
  newOtpCode,
  OTP_RESEND_AFTER_MS,
  OTP_TTL_MS,
  otpHash,
  sendsCountedSince,
} from "./otp-code";
import { otpEmail } from "./otp-email";
import type { IdentityServices } from "./ports";
import { assertWalletSession, screenWallet } from "./wallet-sessions";

export interface SentOtp {
  otpId: string;
  expiresAt: string;
  resendAfter: string;
  /** Mock mode only: the code itself, so a sandbox flow needs no mailbox. */
  debugCode?: string;
}

/**
 * Sends a one-time code proving `email` for `userAddress`, whose wallet session the caller holds, superseding the pair's earlier codes.
 * Per email and integration, one send per 30 s and ten per hour. With an email provider the code is
 * mailed inside the transaction: in live mode a failed send changes nothing and answers
 * EMAIL_UNAVAILABLE; mock mode logs it and goes on (the code is in the answer anyway).
 */
export async function sendOtp(
  ctx: PartnerContext<IdentityServices>,
  input: { email: string; userAddress: string; walletSession?: string | undefined },
): Promise<SentOtp> {
  await assertWalletSession(ctx, input.walletSession, input.userAddress);
  await screenWallet(ctx, input.userAddress, "body.userAddress", "OTP");
  const email = normalizedEmail(input.email);
  const { integrationId, organizationId } = ctx.caller;
  const now = ctx.clock.now();
  const code = newOtpCode(ctx.config);
  const otp = await ctx.db.transaction(async (tx) => {
    // Two sends for one email must not both pass the throttle: they take turns on this lock.
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtextextended(${`breb-otp:${integrationId}:${email}`}, 0))`,
    );
    assertMaySend(await recentSends(tx, integrationId, email, now), now);
    await tx
      .update(brebOtps)
      .set({ supersededAt: now })
      .where(
        and(
          eq(brebOtps.integrationId, integrationId),
          eq(brebOtps.email, email),
          eq(brebOtps.userAddress, input.userAddress),
          isNull(brebOtps.supersededAt),
        ),
      );
    const id = newId("otp", ctx.clock);
    const [row] = await tx
      .insert(brebOtps)
      .values({
        id,
        organizationId,
        integrationId,
        email,
        userAddress: input.userAddress,
        codeHash: await otpHash(ctx.config, id, code),
        createdAt: now,
        expiresAt: new Date(now.getTime() + OTP_TTL_MS),
      })
      .returning();
    if (!row) throw new Error("the code was not recorded");
    await mailCode(ctx, email, code);
    return row;
  });
  return {
    otpId: otp.id,
    expiresAt: otp.expiresAt.toISOString(),
    resendAfter: new Date(otp.createdAt.getTime() + OTP_RESEND_AFTER_MS).toISOString(),
    ...(ctx.config.MODE === "mock" ? { debugCode: code } : {}),
  };
}

/** When the email's codes of the last hour were sent for the integration, newest first (the send throttle's input). */
export async function recentSends(
  db: Pick<Database, "select">,
  integrationId: string,
  email: string,
  now: Date,
): Promise<Date[]> {
  const rows = await db
    .select({ createdAt: brebOtps.createdAt })
    .from(brebOtps)
    .where(
      and(
        eq(brebOtps.integrationId, integrationId),
        eq(brebOtps.email, email),
        gt(brebOtps.createdAt, sendsCountedSince(now)),
      ),
    )
    .orderBy(desc(brebOtps.createdAt));
  return rows.map((row) => row.createdAt);
}

async function mailCode(ctx: PartnerContext<IdentityServices>, email: string, code: string): Promise<void> {
  const sender = ctx.providers.identity.email;
  if (!sender) return;
  try {
    const { id } = await sender.send({ to: email, ...otpEmail(code) });
    ctx.log.info("otp email sent", { to: maskedEmail(email), emailId: id });
  } catch (error) {
    ctx.log.warn("otp email failed", {
      to: maskedEmail(email),
      reason: error instanceof ProviderFailure ? error.message : "unexpected failure",
    });
    if (ctx.config.MODE === "live") throw new ApiError("EMAIL_UNAVAILABLE", { retryAfterSeconds: 5 });
  }
}
