import type { OpenAPIHono } from "@hono/zod-openapi";
import { ipRateLimit } from "../../lib/http/auth";
import type { AppEnv } from "../../lib/http/env";
import { miniappGate } from "../../lib/http/miniapp";
import { MINIAPP_PATH } from "../../lib/http/pages";
import { renderMiniappPage } from "./page";
import { miniappLanguage } from "./texts";

/**
 * What the page may load: its own script and the `/api/breb/*` calls it makes, nothing from
 * elsewhere (the styles are inline; the JSON text block is data, not a script).
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  `script-src 'self'`,
  "style-src 'unsafe-inline'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
].join("; ");

/**
 * GET /miniapp: the end user's BRE-B payout page. Like the key-less `/api/breb/*` routes it calls,
 * it exists only in mock mode with MINIAPP_INTEGRATION_ID set (404 otherwise), and is limited per
 * client IP. Not part of the partner API, so not in the OpenAPI document.
 */
export function register(app: OpenAPIHono<AppEnv>) {
  app.get(MINIAPP_PATH, miniappGate(), ipRateLimit(), async (c) => {
    const language = miniappLanguage(c.req.query("lang"), c.req.header("accept-language"));
    c.header("Content-Security-Policy", CONTENT_SECURITY_POLICY);
    c.header("Cache-Control", "no-store");
    c.header("Content-Language", language);
    c.header("Vary", "Accept-Language");
    c.header("X-Content-Type-Options", "nosniff");
    c.header("Referrer-Policy", "no-referrer");
    return c.html(await renderMiniappPage(language));
  });
}
