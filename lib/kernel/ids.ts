import type { Clock } from "./clock";

/** Crockford base32: sortable as text, no ambiguous letters. */
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

const ID_PREFIXES = [
  "org",
  "aud",
  "int",
  "key",
  "qt",
  "ord",
  "po",
  "si",
  "evt",
  "wep",
  "dlv",
  "att",
  "job",
  "req",
  "stx",
  "otp",
  "kyc",
  "bq",
  "pev",
  "mbr",
  "dsc",
  "dss",
  "ws",
  "rcn",
  "rcd",
  "bfr",
  "mnt",
  "mrc",
  "dny",
] as const;
export type IdPrefix = (typeof ID_PREFIXES)[number];

/** The last id's time and random part: ids made in the same millisecond count up from it. */
let last = { time: -1, random: 0n };
const RANDOM_CHARACTERS = 16;
const RANDOM_SPACE = 32n ** BigInt(RANDOM_CHARACTERS);

/**
 * `prefix_` + 10 characters of millisecond time + 16 characters (80 bits) of randomness. Ids made
 * later sort after ids made earlier, also within one millisecond in one process (the random part
 * then counts up, as monotonic ULIDs do), so listings and timelines can order by id.
 */
export function newId(prefix: IdPrefix, clock: Clock): string {
  const now = clock.now().getTime();
  let random: bigint;
  if (now === last.time && last.random + 1n < RANDOM_SPACE) {
    random = last.random + 1n;
  } else {
    random = 0n;
    for (const byte of crypto.getRandomValues(new Uint8Array(10))) random = (random << 8n) | BigInt(byte);
  }
  last = { time: now, random };
  return `${prefix}_${encode(BigInt(now), 10)}${encode(random, RANDOM_CHARACTERS)}`;
}

function encode(value: bigint, length: number): string {
  let out = "";
  let rest = value;
  for (let i = 0; i < length; i++) {
    out = ALPHABET[Number(rest % 32n)] + out;
    rest /= 32n;
  }
  return out;
}

export function hasPrefix(id: string, prefix: IdPrefix): boolean {
  return new RegExp(`^${prefix}_[0-9A-HJKMNP-TV-Z]{26}$`).test(id);
}
