import type { OpenAPIHono } from "@hono/zod-openapi";
import { Scalar } from "@scalar/hono-api-reference";
import type { AppEnv } from "../../lib/http/env";

/**
 * The interactive reference. Its script is served by the worker's static assets (see
 * dev/docs-assets.mjs and wrangler.toml), never a CDN, so /docs works offline too.
 */
export const DOCS_SCRIPT_PATH = "/docs/scalar-api-reference.js";

/**
 * Scalar's hosted-service features (the AI agent, MCP, the share/deploy developer toolbar,
 * telemetry) call Scalar's cloud: they do nothing offline and send our document elsewhere, so the
 * reference shows none of them.
 */
export const DOCS_CONFIGURATION = {
  url: "/openapi.json",
  cdn: DOCS_SCRIPT_PATH,
  pageTitle: "COPm settlement integrations API",
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: "never",
  telemetry: false,
} as const;

export function register(app: OpenAPIHono<AppEnv>) {
  app.get("/docs", Scalar(DOCS_CONFIGURATION));
}
