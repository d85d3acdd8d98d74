import type { OpenAPIHono } from "@hono/zod-openapi";
import { contractApp, createBaseApp, openApiConfig } from "../http/app";
import type { AppDeps } from "../http/deps";
import type { AppEnv } from "../http/env";
import { registerLazily } from "../http/lazy-operations";
import { declareOperationScopes, declareScopesInDocument } from "../http/operation-scopes";
import { forwardPages } from "../http/pages";
import { API_OPERATIONS } from "./operations";

let operations: Promise<OpenAPIHono<AppEnv>> | undefined;

/**
 * Every operation registered on one app in the table's order, for the document and for what reads
 * the routes' schemas (the test harness's contract check). Made once per process: its modules are
 * the same for every app.
 */
export function operationsApp(): Promise<OpenAPIHono<AppEnv>> {
  operations ??= Promise.all(API_OPERATIONS.map((operation) => operation.load()))
    .then((modules) => {
      const app = contractApp();
      for (const module of modules) module.register(app);
      declareScopesInDocument(app);
      return app;
    })
    .catch((error: unknown) => {
      // A failed import or registration is tried again by the next caller, as a request's would be.
      operations = undefined;
      throw error;
    });
  return operations;
}

/**
 * The OpenAPI document, naming `publicUrl` as its server: for /openapi.json, and for tools (the SDK's
 * generator, the document's lint).
 */
export async function openApiDocument(publicUrl: string) {
  return (await operationsApp()).getOpenAPI31Document(openApiConfig(publicUrl));
}

/**
 * The API worker's app: every operation of the table (lib/composition/operations/), each loaded at
 * its first request. The dashboard and the miniapp are the pages worker's (lib/composition/pages.ts).
 */
export function buildApp(deps: AppDeps): OpenAPIHono<AppEnv> {
  const app = createBaseApp(deps, openApiDocument);
  forwardPages(app, deps.pages);
  for (const operation of API_OPERATIONS) registerLazily(app, operation, contractApp);
  declareOperationScopes(API_OPERATIONS.flatMap((operation) => operation.routes));
  return app;
}
