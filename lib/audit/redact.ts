import { MOVED_KEY, NOT_JSON, readRedacted } from "./read-redacted";
import { isErrorCode, REDACTED_FIELD, REDACTED_JSON, redactedText } from "./redact-rules";

/** A body as the log keeps it. */
export interface RedactedBody {
  /**
   * The body with what must not be kept replaced, as text of at most `maxChars`: the first
   * `maxChars` of the redacted body's JSON, marked when cut, or only its length if it is not JSON.
   * Null without a body.
   */
  text: string | null;
  /**
   * An error answer's `error.code` (`ORDER_NOT_FOUND`), or null. Error answers are short and parsed
   * whole; a body longer than the log keeps gives one only if it is in the part read, else null.
   */
  errorCode: string | null;
}

/**
 * A request's or response's body as the log keeps it, at most `maxChars` of it. Only that much is
 * redacted and written. A body that fits is parsed whole, so whether it is JSON is known exactly
 * (JSON.parse is the cheapest way to read all of a text). A longer one is read as text only until
 * the kept part is written (readRedacted), which is the same text for a body that is JSON: a page of
 * a hundred orders is 65 to 390 KB, of which 16 KiB is kept, and parsing it whole was the largest
 * cost of that request. What is not read is taken to be JSON, with no key that JSON.parse would
 * move (a repeated key, or one like "12" that objects list first) in an object still open where the
 * log stops: a long body that breaks either past that point is logged as its first part, where
 * parsing it whole would have said "not JSON" or put that key first. `wholeParseChars` is for tests.
 */
export function redactedBody(
  text: string | undefined,
  maxChars: number,
  wholeParseChars = maxChars,
): RedactedBody {
  if (text === undefined || text.length === 0) return { text: null, errorCode: null };
  if (text.length > wholeParseChars) {
    const read = readRedacted(text, maxChars);
    if (read === NOT_JSON) return { text: notJson(text, maxChars), errorCode: null };
    // A key JSON.parse would move was read: the whole parse puts it where it goes.
    if (read !== MOVED_KEY) return { text: cut(read.kept, maxChars), errorCode: read.errorCode };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { text: notJson(text, maxChars), errorCode: null };
  }
  return { text: cut(redactedJson(value, maxChars), maxChars), errorCode: errorCodeOf(value) };
}

/** A body that is not JSON (a form, a CSV): only its shape is told. */
function notJson(text: string, maxChars: number): string {
  return cut(`[${text.length} characters, not JSON]`, maxChars);
}

function cut(kept: string, maxChars: number): string {
  return kept.length > maxChars ? `${kept.slice(0, maxChars)}…[truncated]` : kept;
}

/** An error body's `error.code`, read from the value parsed for its redaction too. */
function errorCodeOf(value: unknown): string | null {
  const code = (value as { error?: { code?: unknown } } | null)?.error?.code;
  return typeof code === "string" ? code : null;
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
        if (REDACTED_FIELD.test(key) && !isErrorCode(key, field)) emit(REDACTED_JSON);
        else if (!write(field)) return false;
      }
      emit("}");
    } else emit(JSON.stringify(inner));
    return length <= maxChars;
  };
  write(value);
  return parts.join("");
}
