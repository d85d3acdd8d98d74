import { Secret, TOTP } from "otpauth";
import { hexToBytes } from "viem";
import { otpHash } from "../identity/otp-code";
import type { Config } from "../kernel/config";
import { openSecret, sealSecret, toBase64 } from "../kernel/sealed-secret";
import { dashboardMac } from "./session-key";

/** RFC 6238's defaults, which every authenticator app reads: SHA-1, six digits, 30-second steps. */
const PERIOD_SECONDS = 30;
/** One step either side of now: a phone's clock a little off, or a code typed as it turns. */
const WINDOW_STEPS = 1;
const ISSUER = "COPm";

export const RECOVERY_CODE_COUNT = 10;

/** A new TOTP secret (160 bits, as RFC 4226 recommends) in base32, as apps take it. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The `otpauth://` URI an authenticator app scans: issuer and the member's email as its label. */
export function totpUri(secretBase32: string, email: string): string {
  return totp(secretBase32, email).toString();
}

/**
 * The 30-second step `code` is good for at `now` (within one step either side), or undefined. The
 * caller accepts only a step later than the last one used, so a code never opens two sign-ins.
 */
export function totpStep(secretBase32: string, code: string, now: Date): number | undefined {
  const token = code.replace(/\s/g, "");
  if (!/^\d{6}$/.test(token)) return undefined;
  const delta = totp(secretBase32, "").validate({ token, timestamp: now.getTime(), window: WINDOW_STEPS });
  if (delta === null) return undefined;
  return Math.floor(now.getTime() / 1000 / PERIOD_SECONDS) + delta;
}

function totp(secretBase32: string, label: string): TOTP {
  return new TOTP({
    issuer: ISSUER,
    label,
    algorithm: "SHA1",
    digits: 6,
    period: PERIOD_SECONDS,
    secret: Secret.fromBase32(secretBase32),
  });
}

/** Ten characters of Crockford's base32 (no I, L, O, U) as `xxxxx-xxxxx`: 50 bits each. */
export function newRecoveryCode(): string {
  const alphabet = "0123456789abcdefghjkmnpqrstvwxyz";
  const bytes = crypto.getRandomValues(new Uint8Array(10));
  const chars = [...bytes].map((byte) => alphabet[byte & 31]).join("");
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

/** What is compared: lower case, without the dash or spaces people type. */
function normalizedRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[\s-]/g, "");
}

/**
 * A recovery code's stored HMAC, under the one-time codes' key and bound to its row (a hash copied
 * to another row opens nothing).
 */
export function recoveryCodeHash(config: Config, rowId: string, code: string): Promise<string> {
  return otpHash(config, rowId, normalizedRecoveryCode(code));
}

export async function sealTotpSecret(
  config: Config,
  secretBase32: string,
  memberId: string,
): Promise<string> {
  return sealSecret(await sealingKey(config), secretBase32, memberId);
}

export async function openTotpSecret(config: Config, sealed: string, memberId: string): Promise<string> {
  return openSecret(await sealingKey(config), sealed, memberId);
}

/** TWO_FACTOR_SECRETS_KEY; mock mode without it derives one from the dashboard's (public) key. */
async function sealingKey(config: Config): Promise<string> {
  if (config.TWO_FACTOR_SECRETS_KEY) return config.TWO_FACTOR_SECRETS_KEY;
  if (config.MODE === "live") throw new Error("TWO_FACTOR_SECRETS_KEY is required in live mode");
  const derived = await dashboardMac(config, "two-factor-sealing-key");
  return toBase64(hexToBytes(`0x${derived}`));
}
