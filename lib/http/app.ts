import { OpenAPIHono } from "@hono/zod-openapi";
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { ConfigProblem } from "../kernel/config";
import { ApiError } from "../kernel/errors/api-error";
import { createLogger } from "../kernel/log";
import { API_SCOPES } from "../tenancy/scopes";
import { apiVersion } from "./api-version";
import { API_VERSIONS, CURRENT_API_VERSION } from "./api-versions";
import { adminAuth, ipRateLimit, partnerAuth } from "./auth";
import { CALLBACKS_PREFIX, callbackGuards } from "./callbacks";
import { declareContract, TAGS } from "./contract";
import type { AppDeps } from "./deps";
import type { AppEnv } from "./env";
import { handleError, respondWithError } from "./errors";
import { allowedMethods } from "./method-not-allowed";
import { BREB_MINIAPP_PREFIX, miniappCaller, miniappGate } from "./miniapp";
import { requestContext } from "./request-context";
import { requestGuards } from "./request-guards";
import { noSniff } from "./security-headers";
import { validationHook } from "./validation";

type OpenAPIObjectConfig = Parameters<OpenAPIHono["getOpenAPI31Document"]>[0];

const API_VERSION = "0.1.0";
const MAX_BODY_BYTES = 64 * 1024;
const PARTNER_PREFIX = "/api/integrations";
const ADMIN_PREFIX = "/admin";

/** The document's fixed parts; the servers list comes from the deployment's public URL. */
export function openApiConfig(publicUrl: string): OpenAPIObjectConfig {
  return {
    openapi: "3.1.0",
    info: {
      title: "COPm settlement integrations API",
      version: API_VERSION,
      description:
        "Partner API for stablecoin settlement into Colombian pesos: settlement orders from USDC to COPm, " +
        "BRE-B peso payouts, wallet swaps and signed payout webhooks. Amounts are decimal strings. " +
        "Keys say their mode: copm_live_ keys work in live mode only, copm_test_ keys in test (mock) mode only. " +
        "Every BRE-B call about a user needs the user's wallet session (Sign-In with Ethereum, EIP-4361): " +
        "POST /api/integrations/breb/kyc/wallet/challenge, have the wallet sign the message, " +
        "POST /api/integrations/breb/kyc/wallet/session, then send the session in the Wallet-Session header. " +
        `Versions are dated: send \`API-Version: ${CURRENT_API_VERSION}\` to pin this one (the default); every response names the version it was rendered at in the same header, and an unknown version is 400 API_VERSION_UNKNOWN.`,
      // Not an open-source licence: an SPDX reference of the service's own, as SPDX allows (OpenAPI
      // 3.1's `identifier`, which the generator's 3.0-era type does not know).
      license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" } as { name: string },
      // The spec's interface version stays in `version`; the dated version a client pins is here.
      "x-api-version": CURRENT_API_VERSION,
      "x-api-versions": [...API_VERSIONS],
    },
    servers: [{ url: publicUrl, description: "This deployment" }],
    security: [{ bearerAuth: [] }],
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
  };
}

/**
 * An app with the document's contract (contract.ts) and security schemes: the one the operations are
 * registered on for the document, and each operation's own when the worker loads it
 * (lazy-operations.ts), so a route is validated the same way in both.
 */
export function contractApp(): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  declareContract(app);
  app.openAPIRegistry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    description: `An integration API key: \`Authorization: Bearer <API_KEY>\`. A restricted key carries scopes; each operation names the one it needs as its security role (403 INSUFFICIENT_SCOPE without it): ${Object.entries(
      API_SCOPES,
    )
      .map(([scope, about]) => `\`${scope}\` (${about})`)
      .join("; ")}.`,
  });
  app.openAPIRegistry.registerComponent("securitySchemes", "adminToken", {
    type: "http",
    scheme: "bearer",
    description: "The operator's ADMIN_TOKEN, for /admin routes only.",
  });
  return app;
}

/**
 * The app every request goes through: request context, body limit, authentication by area, rate
 * limits, and one error model for everything that goes wrong. `document`, when given, is what
 * /openapi.json answers.
 */
export function createBaseApp(
  deps: AppDeps,
  document?: (publicUrl: string) => Promise<unknown>,
): OpenAPIHono<AppEnv> {
  const app = contractApp();
  app.use("*", noSniff());
  app.use("*", requestContext(deps));
  app.use("*", apiVersion());
  app.use(
    "*",
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: () => {
        throw new ApiError("PAYLOAD_TOO_LARGE");
      },
    }),
  );
  app.use("*", requestGuards());
  app.use(`${PARTNER_PREFIX}/*`, partnerAuth());
  app.use(`${ADMIN_PREFIX}/*`, ipRateLimit(), adminAuth());
  app.use(`${BREB_MINIAPP_PREFIX}/*`, miniappGate(), ipRateLimit(), miniappCaller());
  app.use(`${CALLBACKS_PREFIX}/*`, callbackGuards());
  for (const path of ["/health", "/openapi.json", "/docs"]) app.use(path, ipRateLimit());

  app.notFound((c) => {
    const allow = allowedMethods(app, c.req.path);
    if (allow.length > 0) {
      c.header("Allow", allow.join(", "));
      return respondWithError(c, new ApiError("METHOD_NOT_ALLOWED"));
    }
    return respondWithError(c, new ApiError("NOT_FOUND"));
  });
  app.onError(handleError);
  if (document) {
    // Built at its first request and kept for the isolate's life (the app is built once per isolate):
    // it loads every operation and costs tens of milliseconds of CPU, and the routes cannot change
    // under a running app.
    let text: Promise<string> | undefined;
    app.get("/openapi.json", async (c) => {
      text ??= document(deps.config.PUBLIC_URL).then(
        (made) => JSON.stringify(made),
        (error: unknown) => {
          text = undefined;
          throw error;
        },
      );
      return c.body(await text, 200, { "content-type": "application/json" });
    });
  }
  return app;
}

/**
 * What answers when the configuration does not parse: every request gets 500 naming the
 * variables at fault and what is wrong with them, never their values.
 */
export function misconfiguredApp(problems: ConfigProblem[]): Hono {
  const app = new Hono();
  app.use("*", noSniff());
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
