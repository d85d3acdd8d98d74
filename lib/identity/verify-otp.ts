import { and, desc, eq } from "drizzle-orm";
import { brebOtps } from "../../schema";
import { equalStrings } from "../kernel/constant-time";
import { ApiError } from "../kernel/errors/api-error";
import type { PartnerContext } from "../tenancy/caller";
import { normalizedEmail } from "./identity-input";
import { type KycRecord, type KycView, kycView, linkAtProvider, recordVerifiedEmail } from "./kyc-records";
import { lockedError, OTP_MAX_ATTEMPTS, otpHash, wrongCodeError } from "./otp-code";
import type { IdentityServices } from "./ports";
import { recentSends } from "./send-otp";
import { assertWalletSession, screenWallet } from "./wallet-sessions";

type Outcome = { ok: true; record: KycRecord } | { ok: false; error: ApiError };

/**
 * Checks a code against the latest one sent for this email and address. A wrong code costs one of
 * its five tries (the fifth wrong one locks it: OTP_LOCKED, with Retry-After until a new code may be
 * sent); the right one proves the email and answers the
 * user's KYC: approved at once in mock mode, otherwise with the provider's links. The same right code
 * again, within its ten minutes and five tries, answers the same (a partner may retry a verify whose
 * answer it lost).
 */
export async function verifyOtp(
  ctx: PartnerContext<IdentityServices>,
  input: { email: string; userAddress: string; code: string; walletSession?: string | undefined },
): Promise<KycView> {
  // The wallet first: without it, nobody ties an email to the address or moves its record to another.
  await assertWalletSession(ctx, input.walletSession, input.userAddress);
  await screenWallet(ctx, input.userAddress, "body.userAddress", "OTP");
  const email = normalizedEmail(input.email);
  const now = ctx.clock.now();
  // A wrong try must be counted even though the request fails, so the transaction returns the
  // error instead of throwing it (a throw would roll the count back).
  const outcome = await ctx.db.transaction(async (tx): Promise<Outcome> => {
    const [otp] = await tx
      .select()
      .from(brebOtps)
      .where(
        and(
          eq(brebOtps.integrationId, ctx.caller.integrationId),
          eq(brebOtps.email, email),
          eq(brebOtps.userAddress, input.userAddress),
        ),
      )
      .orderBy(desc(brebOtps.createdAt))
      .limit(1)
      .for("update");
    if (!otp) return { ok: false, error: new ApiError("OTP_NOT_FOUND") };
    // The same limits hold after the code verified: a proven code is not a key to guess at later.
    if (otp.attempts >= OTP_MAX_ATTEMPTS) return { ok: false, error: new ApiError("OTP_LOCKED") };
    if (now >= otp.expiresAt) return { ok: false, error: new ApiError("OTP_EXPIRED") };
    const right = equalStrings(await otpHash(ctx.config, otp.id, input.code), otp.codeHash);
    const attempts = otp.attempts + 1;
    await tx
      .update(brebOtps)
      .set({ attempts, ...(right && !otp.verifiedAt ? { verifiedAt: now } : {}) })
      .where(eq(brebOtps.id, otp.id));
    if (!right) return { ok: false, error: wrongCodeError(attempts) };
    return { ok: true, record: await recordVerifiedEmail(tx, ctx, input.userAddress, email) };
  });
  if (!outcome.ok && outcome.error.code === "OTP_LOCKED") {
    throw lockedError(await recentSends(ctx.db, ctx.caller.integrationId, email, now), now);
  }
  if (!outcome.ok) throw outcome.error;
  return kycView(await linkAtProvider(ctx, outcome.record));
}
