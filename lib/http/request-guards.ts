import type { MiddlewareHandler } from "hono";
import { ApiError, type Problem } from "../errors/api-error";
import type { AppEnv } from "./env";

const NUL = "\u0000";
const PROBLEM = "contains a NUL character (U+0000), which no field accepts";
/** Headers whose values the service stores or compares (the rest it never reads). */
const READ_HEADERS = ["idempotency-key"]; // HTTP parsers refuse NUL in headers; checked all the same

/**
 * Refuses, for every route and before anything else reads the request, what no field of this API
 * accepts: a NUL character anywhere in a string (path, query, the headers the service reads, JSON
 * keys and values at any depth; Postgres cannot store it), and a JSON body in any charset but UTF-8.
 */
export function requestGuards(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const type = c.req.header("content-type");
    if (type && isJson(type) && !isUtf8(type)) {
      throw new ApiError("UNSUPPORTED_MEDIA_TYPE", {
        detail: { en: "(JSON is accepted in UTF-8 only)", es: "(solo se acepta JSON en UTF-8)" },
      });
    }
    const problems: Problem[] = [];
    const url = new URL(c.req.url);
    if (decoded(url.pathname).includes(NUL)) problems.push(nulIn("path"));
    for (const [name, value] of url.searchParams) {
      if (name.includes(NUL) || value.includes(NUL))
        problems.push(nulIn(`query.${name.replaceAll(NUL, "?")}`));
    }
    for (const name of READ_HEADERS) {
      if (c.req.header(name)?.includes(NUL)) problems.push(nulIn(`header.${name}`));
    }
    if (type && isJson(type) && (await c.req.text()).includes("\\u0000")) {
      const body = parsed(await c.req.text());
      if (body !== undefined) collect(body, ["body"], problems);
    }
    if (problems.length > 0) throw new ApiError("INVALID_REQUEST", { problems });
    await next();
  };
}

function nulIn(field: string): Problem {
  return { field, code: "INVALID_REQUEST", problem: PROBLEM };
}

function collect(value: unknown, path: string[], problems: Problem[]): void {
  if (typeof value === "string") {
    if (value.includes(NUL)) problems.push(nulIn(path.join(".")));
    return;
  }
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) collect(item, [...path, String(index)], problems);
    return;
  }
  if (value && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      if (key.includes(NUL)) problems.push(nulIn([...path, key.replaceAll(NUL, "?")].join(".")));
      collect(item, [...path, key.replaceAll(NUL, "?")], problems);
    }
  }
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
