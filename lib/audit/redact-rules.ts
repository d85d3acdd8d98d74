import { ERRORS } from "../kernel/errors/registry";

/**
 * What a request log never keeps (docs/tenancy.md, "Request logs"): secrets, keys, sessions, one-time
 * codes, signatures, emails and BRE-B keys, by the field's name wherever it is, and any string that
 * looks like an email or one of the service's keys or secrets wherever it appears.
 */
export const REDACTED_FIELD =
  /secret|password|token|apikey|api_key|session|signature|otp|^code$|debugcode|email|brebkey|bre_b_key|accountownername|privatekey|authorization/i;
const REDACTED_TEXT = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}|copm_(?:live|test)_\w+|whsec_[\w+/=]+/g;
const REDACTED = "[redacted]";
export const REDACTED_JSON = JSON.stringify(REDACTED);

/**
 * A string with emails, keys and secrets replaced. REDACTED_TEXT can only match where "@", "copm_"
 * or "whsec_" appears, so other strings (hashes, addresses, amounts) skip it: its email branch
 * backtracks over every start of a long word, and on a page of orders' hex it took ~100 ms.
 */
export function redactedText(text: string): string {
  if (!text.includes("@") && !text.includes("copm_") && !text.includes("whsec_")) return text;
  return text.replace(REDACTED_TEXT, REDACTED);
}

/** An error body's `code` (`ORDER_NOT_FOUND`) is the service's own word, not a one-time code. */
export function isErrorCode(key: string, value: unknown): boolean {
  return key === "code" && typeof value === "string" && Object.hasOwn(ERRORS, value);
}
