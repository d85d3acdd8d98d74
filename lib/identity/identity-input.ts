import { getAddress } from "viem";

const EMAIL_MAX_LENGTH = 254;
export const EMAIL_RULE = "must be an email address such as ana@example.com";
export const CHECKSUMMED_ADDRESS_RULE =
  "must be an EIP-55 checksummed EVM address (0x and 40 hex digits in the checksum's mixed case)";

// One @, a local part of the characters mail systems accept unquoted, and a domain of dot-separated
// labels ending in a letter TLD. Quoted local parts and address literals are refused on purpose.
const EMAIL =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;

export function isEmail(value: string): boolean {
  return value.length <= EMAIL_MAX_LENGTH && EMAIL.test(value) && !/\.\.|^\.|\.@/.test(value);
}

/** Emails are matched case-insensitively: stored and compared lower-cased. */
export function normalizedEmail(value: string): string {
  return value.toLowerCase();
}

/** True only for the address spelled exactly as EIP-55 spells it: all-lower or wrong-case is refused. */
export function isChecksummedAddress(value: string): boolean {
  if (!/^0x[0-9a-fA-F]{40}$/.test(value)) return false;
  return getAddress(value) === value;
}

/** `ana@example.com` → `a***@example.com`: enough for a person to recognise, not to harvest. */
export function maskedEmail(email: string): string {
  const at = email.lastIndexOf("@");
  if (at < 1) return "***";
  return `${email.slice(0, 1)}***${email.slice(at)}`;
}
