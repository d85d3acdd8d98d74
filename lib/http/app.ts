import { OpenAPIHono } from "@hono/zod-openapi";

type OpenAPIObjectConfig = Parameters<OpenAPIHono["getOpenAPI31Document"]>[0];

import { Hono } from "hono";
import type { ConfigProblem } from "../config";
import { createLogger, describeError } from "../log";
import type { AppDeps } from "./deps";
import type { AppEnv } from "./env";
import { requestContext } from "./request-context";

export const API_VERSION = "0.1.0";

/** The document's fixed parts; the servers list comes from the deployment's public URL. */
export function openApiConfig(publicUrl: string): OpenAPIObjectConfig {
  return {
    openapi: "3.1.0",
    info: {
      title: "COPm settlement integrations API",
      version: API_VERSION,
      description:
        "Partner API for stablecoin settlement into Colombian pesos: settlement orders from USDC to COPm, " +
        "BRE-B peso payouts, wallet swaps and signed payout webhooks. Amounts are decimal strings.",
      license: { name: "Proprietary" },
    },
    servers: [{ url: publicUrl, description: "This deployment" }],
    security: [{ bearerAuth: [] }],
  };
}

/** The app every operation is registered on: request context, logging, the error envelope. */
export function createBaseApp(deps: AppDeps): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>();
  app.openAPIRegistry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    description: "An integration API key: `Authorization: Bearer <API_KEY>`.",
  });
  app.use("*", requestContext(deps));
  app.notFound((c) => c.json({ error: "not found" }, 404));
  app.onError((error, c) => {
    const log = c.get("log") ?? deps.logger;
    log.error("unhandled error", describeError(error));
    return c.json({ error: "internal error", requestId: c.get("requestId") }, 500);
  });
  app.doc31("/openapi.json", openApiConfig(deps.config.PUBLIC_URL));
  return app;
}

/**
 * What answers when the configuration does not parse: every request gets 500 naming the
 * variables at fault and what is wrong with them, never their values.
 */
export function misconfiguredApp(problems: ConfigProblem[]): Hono {
  const app = new Hono();
  const detail = problems.map((p) => `${p.variable} ${p.problem}`).join("; ");
  let logged = false;
  app.all("*", (c) => {
    if (!logged) {
      createLogger("error").error("invalid configuration", { problems });
      logged = true;
    }
    return c.json({ error: `invalid configuration: ${detail}` }, 500);
  });
  return app;
}
