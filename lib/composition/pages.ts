import type { OpenAPIHono } from "@hono/zod-openapi";
import * as dashboard from "../../functions/dashboard/routes";
import * as miniappPage from "../../functions/miniapp/get-page";
import { createBaseApp } from "../http/app";
import type { AppDeps } from "../http/deps";
import type { AppEnv } from "../http/env";
import { answerConfigurationCheck, forwardedClientAddress } from "../http/pages";

/**
 * The pages worker's app: the partner dashboard and the BRE-B miniapp's page, behind the API worker
 * on the same origin (lib/http/pages.ts forwards their paths). Its own worker so partner API
 * isolates never load, nor evaluate, the pages' code. Its client is the one the API worker names.
 */
export function buildPagesApp(deps: AppDeps): OpenAPIHono<AppEnv> {
  const app = createBaseApp({ ...deps, clientAddress: forwardedClientAddress });
  miniappPage.register(app);
  dashboard.register(app);
  answerConfigurationCheck(app);
  return app;
}
