import { isErrorCode, REDACTED_FIELD, REDACTED_JSON, redactedText } from "./redact-rules";

export const NOT_JSON = "not JSON";
export const MOVED_KEY = "moved key";

/** An object or array being read. */
interface Open {
  object: boolean;
  /** False inside a redacted value: it is read (to know where it ends, and that it is JSON), not written. */
  written: boolean;
  /** A written object's keys so far, to see one JSON.parse would move; undefined if not written. */
  keys: Set<string> | undefined;
  /** The key whose value is being read. */
  key: string;
  /** Nothing written in it yet (no comma before its first entry). */
  first: boolean;
}

/** Keys that objects list before the others, in numeric order (array indexes; some more are taken). */
const INDEX_KEY = /^(?:0|[1-9][0-9]*)$/;
/** A whole number JSON.stringify writes back as it is (fifteen digits at most: exact as a double). */
const PLAIN_NUMBER = /^-?[1-9][0-9]{0,14}$|^0$/;

/** What `readRedacted` reads next. */
const VALUE = 0;
const KEY = 1;
const AFTER_VALUE = 2;

/**
 * What `redactedJson(JSON.parse(text), maxChars)` writes, read from the text in order without
 * parsing it whole, left off once past `maxChars` (what is not read is not checked: see
 * redactedBody). A token at a time: structure is written as JSON.stringify writes it (no
 * whitespace), a string is decoded (JSON.parse of that token alone, when it has escapes), redacted
 * and written with JSON.stringify, a number is written as JSON.stringify writes JSON.parse's value.
 * NOT_JSON when the text read is not JSON; MOVED_KEY when an object written has a key JSON.parse
 * would move (a repeated key keeps its first place with its last value; index-like keys go first).
 */
export function readRedacted(
  text: string,
  maxChars: number,
): { kept: string; errorCode: string | null } | typeof NOT_JSON | typeof MOVED_KEY {
  let kept = "";
  const emit = (part: string) => {
    kept += part;
  };
  const open: Open[] = [];
  let errorCode: string | null = null;
  let at = 0;
  let next: typeof VALUE | typeof KEY | typeof AFTER_VALUE = VALUE;
  /** Whether the value at `at` is written. */
  let written = true;
  /** The value at `at` is a "code" field's: written if it is an error code, else redacted. */
  let codeField = false;
  /**
   * Whether the last string read had escapes, or a surrogate (one alone is escaped when written):
   * else its token is what JSON.stringify writes for it (set by stringEnd).
   */
  let escaped = false;
  let surrogate = false;

  /** The end of the string token starting at `start` (a quote), or -1 if it is not one. */
  const stringEnd = (start: number): number => {
    escaped = false;
    surrogate = false;
    for (let i = start + 1; ; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x22) return i + 1; // "
      if (c >= 0xd800 && c <= 0xdfff) surrogate = true;
      if (c === 0x5c) {
        // \
        escaped = true;
        const e = text.charCodeAt(i + 1);
        if (e === 0x75) {
          // u
          for (let h = i + 2; h < i + 6; h++) if (!isHex(text.charCodeAt(h))) return -1;
          i += 5;
        } else if (
          e === 0x22 ||
          e === 0x5c ||
          e === 0x2f ||
          e === 0x62 ||
          e === 0x66 ||
          e === 0x6e ||
          e === 0x72 ||
          e === 0x74
        )
          i += 1;
        else return -1;
      } else if (!(c >= 0x20)) return -1; // a control character, or the text's end (NaN)
    }
  };
  const decoded = (start: number, end: number): string =>
    escaped ? (JSON.parse(text.slice(start, end)) as string) : text.slice(start + 1, end - 1);
  /** JSON.stringify of the last string read, `value` (its token, when that is the same). */
  const stringJson = (start: number, end: number, value: string): string =>
    escaped || surrogate ? JSON.stringify(value) : text.slice(start, end);
  /** Whether the value at `at` is the body's `error.code`. */
  const atErrorCode = (): boolean => {
    if (open.length !== 2) return false;
    const [body, error] = open as [Open, Open];
    return body.object && body.key === "error" && error.object && error.key === "code";
  };

  for (;;) {
    if (kept.length > maxChars) return { kept, errorCode };
    if (next === VALUE) {
      at = skipSpace(text, at);
      const c = text.charCodeAt(at);
      if (c === 0x7b || c === 0x5b) {
        // { or [
        const object = c === 0x7b;
        if (written) emit(object ? "{" : "[");
        at = skipSpace(text, at + 1);
        if (text.charCodeAt(at) === (object ? 0x7d : 0x5d)) {
          if (written) emit(object ? "}" : "]");
          at += 1;
          next = AFTER_VALUE;
        } else {
          const keys = object && written ? new Set<string>() : undefined;
          open.push({ object, written, keys, key: "", first: true });
          next = object ? KEY : VALUE;
        }
      } else if (c === 0x22) {
        const end = stringEnd(at);
        if (end < 0) return NOT_JSON;
        const errorCodeHere = atErrorCode();
        if (written || errorCodeHere) {
          const value = decoded(at, end);
          if (errorCodeHere) errorCode = value;
          if (codeField && !isErrorCode("code", value)) emit(REDACTED_JSON);
          else if (written) {
            const redacted = redactedText(value);
            emit(redacted === value ? stringJson(at, end, value) : JSON.stringify(redacted));
          }
        }
        at = end;
        next = AFTER_VALUE;
      } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
        // - or a digit
        const end = numberEnd(text, at);
        if (end < 0) return NOT_JSON;
        if (written) {
          const token = text.slice(at, end);
          emit(PLAIN_NUMBER.test(token) ? token : JSON.stringify(Number(token)));
        }
        at = end;
        next = AFTER_VALUE;
      } else {
        const literal = c === 0x74 ? "true" : c === 0x66 ? "false" : c === 0x6e ? "null" : undefined;
        if (literal === undefined || !text.startsWith(literal, at)) return NOT_JSON;
        if (written) emit(literal);
        at += literal.length;
        next = AFTER_VALUE;
      }
      codeField = false;
    } else if (next === KEY) {
      const object = open[open.length - 1] as Open;
      at = skipSpace(text, at);
      if (text.charCodeAt(at) !== 0x22) return NOT_JSON;
      const end = stringEnd(at);
      if (end < 0) return NOT_JSON;
      // A key is decoded where it is written, and on the top two levels (where `error.code` is).
      if (object.keys || open.length <= 2) {
        const key = decoded(at, end);
        if (object.keys) {
          if (object.keys.has(key) || (isDigit(key.charCodeAt(0)) && INDEX_KEY.test(key))) return MOVED_KEY;
          object.keys.add(key);
          emit(`${object.first ? "" : ","}${stringJson(at, end, key)}:`);
          object.first = false;
        }
        object.key = key;
      }
      at = skipSpace(text, end);
      if (text.charCodeAt(at) !== 0x3a) return NOT_JSON; // :
      at = skipSpace(text, at + 1);
      written = object.written;
      if (written && REDACTED_FIELD.test(object.key)) {
        // Only a string can be an error code: anything else is redacted whole, and only read.
        if (object.key === "code" && text.charCodeAt(at) === 0x22) codeField = true;
        else {
          emit(REDACTED_JSON);
          written = false;
        }
      }
      next = VALUE;
    } else {
      const inside = open[open.length - 1];
      at = skipSpace(text, at);
      if (inside === undefined) {
        if (at !== text.length) return NOT_JSON;
        return { kept, errorCode };
      }
      const c = text.charCodeAt(at);
      if (c === 0x2c) {
        // ,
        at += 1;
        if (inside.object) next = KEY;
        else {
          written = inside.written;
          if (written) emit(",");
          next = VALUE;
        }
      } else if (c === (inside.object ? 0x7d : 0x5d)) {
        at += 1;
        open.pop();
        if (inside.written) emit(inside.object ? "}" : "]");
      } else return NOT_JSON;
    }
  }
}

function skipSpace(text: string, at: number): number {
  for (;;) {
    const c = text.charCodeAt(at);
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return at;
    at += 1;
  }
}

function isHex(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** The end of the digits starting at `at`. */
function digitsEnd(text: string, at: number): number {
  while (isDigit(text.charCodeAt(at))) at += 1;
  return at;
}

/** The end of the number token at `start` (JSON's grammar), or -1 if it is not one. */
function numberEnd(text: string, start: number): number {
  let at = start;
  if (text.charCodeAt(at) === 0x2d) at += 1; // -
  const first = text.charCodeAt(at);
  if (first === 0x30) at += 1;
  else if (first >= 0x31 && first <= 0x39) at = digitsEnd(text, at);
  else return -1;
  if (text.charCodeAt(at) === 0x2e) {
    // .
    if (!isDigit(text.charCodeAt(at + 1))) return -1;
    at = digitsEnd(text, at + 1);
  }
  const e = text.charCodeAt(at);
  if (e === 0x65 || e === 0x45) {
    // e or E
    at += 1;
    const sign = text.charCodeAt(at);
    if (sign === 0x2b || sign === 0x2d) at += 1;
    if (!isDigit(text.charCodeAt(at))) return -1;
    at = digitsEnd(text, at);
  }
  return at;
}
