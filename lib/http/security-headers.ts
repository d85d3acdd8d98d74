import type { MiddlewareHandler } from "hono";

/**
 * Every answer, whatever made it (an operation, an error, a page, a library's handler, the
 * misconfigured app): a browser never guesses a type the answer does not declare, so JSON or CSV
 * holding a partner's text is never run as HTML or script. Set after the answer is made, so
 * nothing made without Hono's helpers goes without it.
 */
export function noSniff(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    c.header("X-Content-Type-Options", "nosniff");
  };
}

/**
 * The headers of an answer carrying a secret shown once (a new API key, a webhook signing secret, a
 * wallet session): no cache, the browser's or a proxy's, keeps a copy of it. Other answers name no
 * caching: each is a partner's own request under its key, which shared caches do not store.
 */
export const SECRET_HEADERS = { "Cache-Control": "no-store" } as const;
