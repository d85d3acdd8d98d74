import type { BREB_KEY_TYPES } from "../../schema";
import { isEmail } from "../identity/identity-input";

export type BrebKeyType = (typeof BREB_KEY_TYPES)[number];

export const BREB_KEY_RULE =
  "must be a BRE-B key: a Colombian mobile number (3 and 9 digits, +57 optional), an email, a national ID (5 to 10 digits, not starting with 0), an @alias (@ and 1 to 19 letters or digits) or a merchant code (10 digits starting with 0)";

/**
 * The key's type from its shape. No official patterns were found for phone or merchant keys
 * (docs/domain-facts.md); these are the service's documented rules, checked before the provider
 * is asked, so an obvious typo never reaches it.
 */
export function brebKeyType(key: string): BrebKeyType | undefined {
  if (/^(\+?57)?3\d{9}$/.test(key)) return "phone";
  if (/^@[A-Za-z0-9]{1,19}$/.test(key)) return "alias";
  if (/^0\d{9}$/.test(key)) return "merchant_code";
  if (/^[1-9]\d{4,9}$/.test(key)) return "national_id";
  if (isEmail(key)) return "email";
  return undefined;
}

/** What answers show of a key: its type's shape with the middle hidden. */
export function maskedBrebKey(key: string): string {
  if (key.length <= 4) return "•".repeat(key.length);
  const at = key.indexOf("@");
  if (at > 0) return `${key.slice(0, 1)}•••${key.slice(at)}`;
  return `${key.slice(0, 2)}${"•".repeat(Math.max(1, key.length - 4))}${key.slice(-2)}`;
}

/**
 * The rule for the owner's name: equal once accents, case, punctuation and spacing are set aside
 * ("José  Pérez-Gómez" matches "JOSE PEREZ GOMEZ"). The words must be the same, in the same order.
 */
export function sameOwnerName(a: string, b: string): boolean {
  return normalizedName(a) === normalizedName(b) && normalizedName(a) !== "";
}

function normalizedName(name: string): string {
  return name
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}
