import { ERRORS } from "../kernel/errors/registry";

/**
 * What a request log never keeps (docs/tenancy.md, "Request logs"): secrets, keys, sessions, one-time
 * codes, signatures, emails and BRE-B keys, by the field's name wherever it is, and any string that
 * looks like an email or one of the service's keys or secrets wherever it appears.
 */
const REDACTED_FIELD =
  /secret|password|token|apikey|api_key|session|signature|otp|^code$|debugcode|email|brebkey|bre_b_key|accountownername|privatekey|authorization/i;
const REDACTED_TEXT = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}|copm_(?:live|test)_\w+|whsec_[\w+/=]+/g;
const REDACTED = "[redacted]";

/** A JSON body with what must not be kept replaced, as text of at most `maxChars`. */
export function redactedBody(text: string | undefined, maxChars: number): string | null {
  if (text === undefined || text.length === 0) return null;
  let kept: string;
  try {
    kept = JSON.stringify(redacted(JSON.parse(text)));
  } catch {
    // Not JSON (a form, a CSV): only its shape is told.
    kept = `[${text.length} characters, not JSON]`;
  }
  return kept.length > maxChars ? `${kept.slice(0, maxChars)}…[truncated]` : kept;
}

function redacted(value: unknown): unknown {
  if (typeof value === "string") return value.replace(REDACTED_TEXT, REDACTED);
  if (Array.isArray(value)) return value.map(redacted);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [
        key,
        REDACTED_FIELD.test(key) && !isErrorCode(key, inner) ? REDACTED : redacted(inner),
      ]),
    );
  }
  return value;
}

/** An error body's `code` (`ORDER_NOT_FOUND`) is the service's own word, not a one-time code. */
function isErrorCode(key: string, value: unknown): boolean {
  return key === "code" && typeof value === "string" && Object.hasOwn(ERRORS, value);
}
