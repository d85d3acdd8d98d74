import type { OpenAPIHono } from "@hono/zod-openapi";
import { Scalar } from "@scalar/hono-api-reference";
import type { AppEnv } from "../../lib/http/env";
import { randomToken } from "../../lib/kernel/secret-token";

/**
 * The interactive reference. Its script is served by the worker's static assets (see
 * dev/docs-assets.mjs and wrangler.toml), never a CDN, so /docs works offline too.
 */
export const DOCS_SCRIPT_PATH = "/docs/scalar-api-reference.js";

/**
 * Scalar's hosted-service features (the AI agent, MCP, the share/deploy developer toolbar,
 * telemetry) call Scalar's cloud: they do nothing offline and send our document elsewhere, so the
 * reference shows none of them. Its default fonts come from Scalar's font host: the page uses the
 * system's.
 */
export const DOCS_CONFIGURATION = {
  url: "/openapi.json",
  cdn: DOCS_SCRIPT_PATH,
  pageTitle: "COPm settlement integrations API",
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: "never",
  telemetry: false,
  withDefaultFonts: false,
} as const;

/**
 * What the reference may load, and no more: Scalar's bundle from this origin and the page's own
 * start-up script (both carry a nonce new with each answer, so no other inline script runs); the
 * document, and what "Test request" sends, to this origin and the document's server (PUBLIC_URL),
 * never through Scalar's proxy; images of this origin or inline. Styles are inline (the page's theme
 * and those Scalar's components add as they render). No page frames it, no form posts from it.
 */
function contentSecurityPolicy(nonce: string, publicUrl: string): string {
  return [
    "default-src 'none'",
    `script-src 'self' 'nonce-${nonce}'`,
    "style-src 'unsafe-inline'",
    "img-src 'self' data:",
    `connect-src 'self' ${new URL(publicUrl).origin}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}

export function register(app: OpenAPIHono<AppEnv>) {
  app.get(
    "/docs",
    // Each answer's configuration: Scalar puts the nonce on its scripts, the policy names it.
    Scalar<AppEnv>((c) => {
      const nonce = randomToken();
      c.header("Content-Security-Policy", contentSecurityPolicy(nonce, c.get("services").config.PUBLIC_URL));
      return { ...DOCS_CONFIGURATION, nonce };
    }),
  );
}
