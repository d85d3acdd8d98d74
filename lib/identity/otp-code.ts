import type { Config } from "../kernel/config";
import { ApiError } from "../kernel/errors/api-error";
import { hmacSha256 } from "../kernel/hmac";

/** How long a code is good for, how soon another may be sent, and how many tries it allows. */
export const OTP_TTL_MS = 10 * 60_000;
export const OTP_RESEND_AFTER_MS = 30_000;
export const OTP_MAX_ATTEMPTS = 5;
const OTP_SENDS_PER_HOUR = 10;

/** Mock mode's hash key when none is configured: mock codes are public by design, so it guards nothing. */
const MOCK_HASH_KEY = "mock-mode-otp-hash-key-guards-nothing-0000";

/** Six digits, uniform: mock mode's fixed code, else from the platform's CSPRNG. */
export function newOtpCode(config: Config): string {
  return config.MODE === "mock" ? config.MOCK_OTP_CODE : randomSixDigitCode();
}

/** Six digits from the platform's CSPRNG, every code equally likely. */
export function randomSixDigitCode(): string {
  const draw = new Uint32Array(1);
  // Rejection sampling keeps every code equally likely (2^32 is not a multiple of 10^6).
  const limit = 2 ** 32 - (2 ** 32 % 1_000_000);
  do crypto.getRandomValues(draw);
  while ((draw[0] as number) >= limit);
  return String((draw[0] as number) % 1_000_000).padStart(6, "0");
}

/**
 * What is stored of a code: HMAC-SHA256 under OTP_HASH_KEY of the code bound to its row, so a
 * leaked table reveals no code and a hash copied onto another row does not verify.
 */
export async function otpHash(config: Config, otpId: string, code: string): Promise<string> {
  const sign = await hmacSha256(config.OTP_HASH_KEY ?? MOCK_HASH_KEY);
  // Stored as bare hex, without viem's 0x.
  return (await sign(`${otpId}:${code}`)).slice(2);
}

const HOUR_MS = 60 * 60_000;

/**
 * The send throttle every one-time code shares: one send per 30 s and ten per hour for one email.
 * `recent` is when the email's codes of the last hour were made, newest first.
 */
export function assertMaySend(recent: readonly Date[], now: Date): void {
  const refusal = sendRefusal(recent, now);
  if (refusal) throw refusal;
}

/**
 * What a verify answers once a code is locked: OTP_LOCKED, with `Retry-After` the seconds until the
 * send throttle lets a new code go to the email (at least 1): the lock on the code never ends, a new
 * code is the way on. `recent` as for assertMaySend.
 */
export function lockedError(recent: readonly Date[], now: Date): ApiError {
  return new ApiError("OTP_LOCKED", {
    retryAfterSeconds: Math.max(1, sendRefusal(recent, now)?.options.retryAfterSeconds ?? 0),
  });
}

function sendRefusal(recent: readonly Date[], now: Date): ApiError | undefined {
  const latest = recent[0];
  if (latest && now.getTime() - latest.getTime() < OTP_RESEND_AFTER_MS) {
    return new ApiError("OTP_RESEND_TOO_SOON", {
      retryAfterSeconds: (latest.getTime() + OTP_RESEND_AFTER_MS - now.getTime()) / 1000,
    });
  }
  const oldestCounted = recent[OTP_SENDS_PER_HOUR - 1];
  if (oldestCounted) {
    return new ApiError("OTP_SEND_LIMIT_REACHED", {
      retryAfterSeconds: (oldestCounted.getTime() + HOUR_MS - now.getTime()) / 1000,
    });
  }
  return undefined;
}

/** Since when a send counts towards the hourly limit. */
export function sendsCountedSince(now: Date): Date {
  return new Date(now.getTime() - HOUR_MS);
}

/** What a wrong code answers after its `attempts`-th try: the tries left, or locked at the fifth. */
export function wrongCodeError(attempts: number): ApiError {
  const attemptsLeft = OTP_MAX_ATTEMPTS - attempts;
  if (attemptsLeft <= 0) return new ApiError("OTP_LOCKED");
  return new ApiError("OTP_INVALID", {
    extras: { attemptsLeft },
    detail: { es: `Intentos restantes: ${attemptsLeft}.`, en: `Attempts left: ${attemptsLeft}.` },
  });
}
