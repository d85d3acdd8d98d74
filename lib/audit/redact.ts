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

/** A body as the log reads it: its text, and its value when the text is JSON (parsed once, read twice). */
export interface LoggedBody {
  text: string;
  json: { value: unknown } | undefined;
}

/** A non-empty body with its JSON value, if it is JSON. */
export function loggedBody(text: string | undefined): LoggedBody | undefined {
  if (text === undefined || text.length === 0) return undefined;
  try {
    return { text, json: { value: JSON.parse(text) } };
  } catch {
    return { text, json: undefined };
  }
}

/**
 * A JSON body with what must not be kept replaced, as text of at most `maxChars`: the first
 * `maxChars` of the redacted body's JSON, marked when cut. Only that much is redacted and written:
 * a page of a hundred orders answers ~390 KB, of which 16 KiB is kept.
 */
export function redactedBody(body: LoggedBody | undefined, maxChars: number): string | null {
  if (body === undefined) return null;
  // Not JSON (a form, a CSV): only its shape is told.
  if (body.json === undefined) return cut(`[${body.text.length} characters, not JSON]`, maxChars);
  return cut(redactedJson(body.json.value, maxChars), maxChars);
}

function cut(kept: string, maxChars: number): string {
  return kept.length > maxChars ? `${kept.slice(0, maxChars)}…[truncated]` : kept;
}

/**
 * JSON.stringify of the value redacted, written in order and left off once it is past `maxChars`
 * (what `cut` keeps is the same). The value is JSON.parse's: strings, finite numbers, booleans,
 * null, arrays and plain objects, each written as JSON.stringify writes it.
 */
function redactedJson(value: unknown, maxChars: number): string {
  const parts: string[] = [];
  let length = 0;
  const emit = (part: string) => {
    parts.push(part);
    length += part.length;
  };
  /** False once enough is written. */
  const write = (inner: unknown): boolean => {
    if (typeof inner === "string") emit(JSON.stringify(redactedText(inner)));
    else if (Array.isArray(inner)) {
      emit("[");
      for (const [i, item] of inner.entries()) {
        if (length > maxChars) return false;
        if (i > 0) emit(",");
        if (!write(item)) return false;
      }
      emit("]");
    } else if (inner && typeof inner === "object") {
      emit("{");
      let first = true;
      for (const [key, field] of Object.entries(inner)) {
        if (length > maxChars) return false;
        emit(`${first ? "" : ","}${JSON.stringify(key)}:`);
        first = false;
        if (REDACTED_FIELD.test(key) && !isErrorCode(key, field)) emit(JSON.stringify(REDACTED));
        else if (!write(field)) return false;
      }
      emit("}");
    } else emit(JSON.stringify(inner));
    return length <= maxChars;
  };
  write(value);
  return parts.join("");
}

/**
 * A string with emails, keys and secrets replaced. REDACTED_TEXT can only match where "@", "copm_"
 * or "whsec_" appears, so other strings (hashes, addresses, amounts) skip it: its email branch
 * backtracks over every start of a long word, and on a page of orders' hex it took ~100 ms.
 */
function redactedText(text: string): string {
  if (!text.includes("@") && !text.includes("copm_") && !text.includes("whsec_")) return text;
  return text.replace(REDACTED_TEXT, REDACTED);
}

/** An error body's `code` (`ORDER_NOT_FOUND`) is the service's own word, not a one-time code. */
function isErrorCode(key: string, value: unknown): boolean {
  return key === "code" && typeof value === "string" && Object.hasOwn(ERRORS, value);
}
