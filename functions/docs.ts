import type { OpenAPIHono } from "@hono/zod-openapi";
import { Scalar } from "@scalar/hono-api-reference";
import type { AppEnv } from "../lib/http/env";

/**
 * The interactive reference. Its script is served by the worker's static assets (see
 * dev/docs-assets.mjs and wrangler.toml), never a CDN, so /docs works offline too.
 */
export const DOCS_SCRIPT_PATH = "/docs/scalar-api-reference.js";

export function register(app: OpenAPIHono<AppEnv>) {
  app.get(
    "/docs",
    Scalar({ url: "/openapi.json", cdn: DOCS_SCRIPT_PATH, pageTitle: "COPm settlement integrations API" }),
  );
}
