/**
 * API keys say where they belong, as Stripe's do: `copm_live_` keys work only in live mode and
 * `copm_test_` keys only in mock (test) mode. Then 43 base62 characters (32 random bytes) and 6 base62
 * characters of the CRC32 of the random part: the checksum lets secret scanners tell a real key from
 * noise offline; it is no security. Only the SHA-256 of the key is stored.
 */
export type ApiKeyMode = "live" | "test";
export const API_KEY_PREFIXES: Record<ApiKeyMode, string> = { live: "copm_live_", test: "copm_test_" };
const PREFIX_LENGTH = 10;
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const RANDOM_LENGTH = 43;
const CHECKSUM_LENGTH = 6;
const VISIBLE_START_LENGTH = PREFIX_LENGTH + 4;
const KEY_PATTERN = new RegExp(`^copm_(live|test)_[0-9A-Za-z]{${RANDOM_LENGTH + CHECKSUM_LENGTH}}$`);

/** The kind of key a service in `mode` issues and accepts. */
export function apiKeyModeFor(mode: "live" | "mock"): ApiKeyMode {
  return mode === "live" ? "live" : "test";
}

/** The kind a presented key says it is, by its prefix (nothing else is judged here). */
export function apiKeyModeOf(candidate: string): ApiKeyMode | undefined {
  if (candidate.startsWith(API_KEY_PREFIXES.live)) return "live";
  if (candidate.startsWith(API_KEY_PREFIXES.test)) return "test";
  return undefined;
}

export interface NewApiKey {
  key: string;
  hash: string;
  start: string;
}

export async function generateApiKey(mode: ApiKeyMode): Promise<NewApiKey> {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  const random = toBase62(bytesToBigInt(bytes), RANDOM_LENGTH);
  const key = `${API_KEY_PREFIXES[mode]}${random}${checksum(random)}`;
  return { key, hash: await hashApiKey(key), start: visibleStart(key) };
}

/** Shape and checksum only: says nothing about whether the key exists. */
export function isWellFormedApiKey(candidate: string): boolean {
  if (!KEY_PATTERN.test(candidate)) return false;
  const body = candidate.slice(PREFIX_LENGTH);
  return checksum(body.slice(0, RANDOM_LENGTH)) === body.slice(RANDOM_LENGTH);
}

export async function hashApiKey(key: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(key));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export function visibleStart(key: string): string {
  return key.slice(0, VISIBLE_START_LENGTH);
}

function checksum(random: string): string {
  return toBase62(BigInt(crc32(new TextEncoder().encode(random))), CHECKSUM_LENGTH);
}

function bytesToBigInt(bytes: Uint8Array): bigint {
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  return value;
}

function toBase62(value: bigint, length: number): string {
  let out = "";
  let rest = value;
  while (rest > 0n) {
    out = BASE62[Number(rest % 62n)] + out;
    rest /= 62n;
  }
  return out.padStart(length, "0");
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(data: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of data) crc = (CRC_TABLE[(crc ^ byte) & 0xff] as number) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
