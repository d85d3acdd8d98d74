import type { Clock } from "./clock";

/** Crockford base32: sortable as text, no ambiguous letters. */
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

export const ID_PREFIXES = [
  "org",
  "int",
  "key",
  "qt",
  "ord",
  "po",
  "si",
  "evt",
  "job",
  "req",
  "stx",
] as const;
export type IdPrefix = (typeof ID_PREFIXES)[number];

/**
 * `prefix_` + 10 characters of millisecond time + 16 random characters (80 bits).
 * Ids made later sort after ids made earlier, so listings can page by id.
 */
export function newId(prefix: IdPrefix, clock: Clock): string {
  let time = clock.now().getTime();
  let timePart = "";
  for (let i = 0; i < 10; i++) {
    timePart = ALPHABET[time % 32] + timePart;
    time = Math.floor(time / 32);
  }
  const random = crypto.getRandomValues(new Uint8Array(16));
  let randomPart = "";
  for (const byte of random) randomPart += ALPHABET[byte % 32];
  return `${prefix}_${timePart}${randomPart}`;
}

export function hasPrefix(id: string, prefix: IdPrefix): boolean {
  return new RegExp(`^${prefix}_[0-9A-HJKMNP-TV-Z]{26}$`).test(id);
}
