import type { MiddlewareHandler } from "hono";
import { ApiError, type Problem } from "../kernel/errors/api-error";
import type { AppEnv } from "./env";

const NUL = "\u0000";
const NUL_PROBLEM = "contains a NUL character (U+0000), which no field accepts";
/**
 * Half of a UTF-16 pair with no other half: only a JSON escape can make one. Stored, it reads back as
 * U+FFFD, so what the service answers and compares (a replay's reference) would differ from what was
 * sent. With the `u` flag a pair is one code point, so only a lone half matches.
 */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;
const LONE_SURROGATE_PROBLEM =
  "contains a lone UTF-16 surrogate (an unpaired \\uD800 to \\uDFFF escape), which is not text";
/** Deeper than any body of this API needs (the deepest is 4 levels); a bound on every walk below. */
const MAX_JSON_DEPTH = 32;
/** Enough to name the fields at fault; a body with more NULs is refused all the same. */
const MAX_PROBLEMS = 20;
/** Headers whose values the service stores or compares (the rest it never reads). */
const READ_HEADERS = ["idempotency-key", "wallet-session"]; // HTTP parsers refuse NUL in headers; checked all the same

/**
 * Refuses, for every route and before anything else reads the request, what no field of this API
 * accepts: a NUL character anywhere in a string (path, query, the headers the service reads, JSON
 * keys and values at any depth, form fields; Postgres cannot store it), a lone UTF-16 surrogate in a
 * JSON key or value (not text: UTF-8 cannot carry it), a JSON body nested deeper
 * than MAX_JSON_DEPTH, and a JSON body in any charset but UTF-8. The cheap checks run first, and
 * the body is read in one linear pass with no recursion, so a hostile body costs no more than its
 * 64 KiB.
 */
export function requestGuards(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const type = c.req.header("content-type");
    const json = type !== undefined && isJson(type);
    if (json && !isUtf8(type)) {
      throw new ApiError("UNSUPPORTED_MEDIA_TYPE", {
        detail: { en: "(JSON is accepted in UTF-8 only)", es: "(solo se acepta JSON en UTF-8)" },
      });
    }
    const problems: Problem[] = [];
    const url = new URL(c.req.url);
    if (decoded(url.pathname).includes(NUL)) problems.push(nulIn("path"));
    for (const [name, value] of url.searchParams) {
      if (name.includes(NUL) || value.includes(NUL)) problems.push(nulIn(`query.${printable(name)}`));
    }
    for (const name of READ_HEADERS) {
      if (c.req.header(name)?.includes(NUL)) problems.push(nulIn(`header.${name}`));
    }
    if (json) problems.push(...jsonBodyProblems(await c.req.text()));
    if (problems.length > 0) throw new ApiError("INVALID_REQUEST", { problems });
    await next();
  };
}

/** What is wrong with a JSON body's text: too deep, or NULs and lone surrogates (named by field). Malformed JSON is the validator's. */
function jsonBodyProblems(text: string): Problem[] {
  if (depthExceeds(text, MAX_JSON_DEPTH)) {
    return [
      {
        field: "body",
        code: "INVALID_REQUEST",
        problem: `is nested deeper than ${MAX_JSON_DEPTH} levels`,
      },
    ];
  }
  // A NUL or a lone surrogate can only reach a parsed string through its escape: raw control
  // characters are not JSON, and the body was decoded from UTF-8, which has no surrogates.
  if (!text.includes("\\u0000") && !SURROGATE_ESCAPE.test(text)) return [];
  const body = parsed(text);
  return body === undefined ? [] : textProblems(body);
}

/** The NULs of a form body (application/x-www-form-urlencoded or multipart), by field. */
export function formProblems(fields: Record<string, unknown>): Problem[] {
  const problems: Problem[] = [];
  for (const [name, value] of Object.entries(fields)) {
    const values = Array.isArray(value) ? value : [value];
    if (name.includes(NUL) || values.some((item) => typeof item === "string" && item.includes(NUL))) {
      problems.push(nulIn(printable(name)));
    }
  }
  return problems.slice(0, MAX_PROBLEMS);
}

/** `\uD800` to `\uDFFF`, either case: the only way a surrogate, paired or not, is written in JSON text. */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

function nulIn(field: string): Problem {
  return { field, code: "INVALID_REQUEST", problem: NUL_PROBLEM };
}

/** A string's problems as a field's: a NUL, a lone surrogate, or both. */
function stringProblems(text: string, field: string): Problem[] {
  const problems: Problem[] = [];
  if (text.includes(NUL)) problems.push(nulIn(field));
  if (LONE_SURROGATE.test(text))
    problems.push({ field, code: "INVALID_REQUEST", problem: LONE_SURROGATE_PROBLEM });
  return problems;
}

function printable(name: string): string {
  return name.replaceAll(NUL, "?");
}

/**
 * Whether the JSON text opens more than `max` arrays or objects inside one another: one pass over the
 * characters, skipping strings, so the answer costs the same whatever the nesting.
 */
function depthExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === 0x5c)
        i++; // a backslash escapes the next character, a quote included
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) {
      inString = true;
    } else if (char === 0x5b || char === 0x7b) {
      if (++depth > max) return true;
    } else if (char === 0x5d || char === 0x7d) {
      depth--;
    }
  }
  return false;
}

/**
 * Every field holding a NUL or a lone surrogate, keys included, in document order, walked with an
 * explicit stack.
 */
function textProblems(body: unknown): Problem[] {
  const problems: Problem[] = [];
  const stack: Array<{ value: unknown; path: string; key: string | undefined }> = [
    { value: body, path: "body", key: undefined },
  ];
  for (let next = stack.pop(); next && problems.length < MAX_PROBLEMS; next = stack.pop()) {
    const { value, path, key } = next;
    if (key !== undefined) problems.push(...stringProblems(key, path));
    if (typeof value === "string") {
      problems.push(...stringProblems(value, path));
    } else if (Array.isArray(value)) {
      for (let index = value.length - 1; index >= 0; index--) {
        stack.push({ value: value[index], path: `${path}.${index}`, key: undefined });
      }
    } else if (value && typeof value === "object") {
      const entries = Object.entries(value);
      for (let index = entries.length - 1; index >= 0; index--) {
        const [name, item] = entries[index] as [string, unknown];
        stack.push({ value: item, path: `${path}.${printable(name)}`, key: name });
      }
    }
  }
  return problems.slice(0, MAX_PROBLEMS);
}

function isJson(contentType: string): boolean {
  const media = contentType.split(";")[0]?.trim().toLowerCase() ?? "";
  return media === "application/json" || media.endsWith("+json");
}

function isUtf8(contentType: string): boolean {
  const charset = contentType
    .split(";")
    .slice(1)
    .map((part) => part.trim().toLowerCase())
    .find((part) => part.startsWith("charset="));
  if (!charset) return true;
  const value = charset.slice("charset=".length).replaceAll('"', "");
  return value === "utf-8" || value === "utf8";
}

function decoded(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // Malformed JSON is the body validator's to refuse, with its own message.
    return undefined;
  }
}
