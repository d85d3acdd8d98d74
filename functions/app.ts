import type { OpenAPIHono } from "@hono/zod-openapi";
import { createBaseApp } from "../lib/http/app";
import type { AppDeps } from "../lib/http/deps";
import type { AppEnv } from "../lib/http/env";
import * as docs from "./docs";
import * as health from "./health";
import * as runJob from "./jobs/run-job";

/** Every operation the worker serves. One module per operation, each with a `register`. */
const operations: ReadonlyArray<{ register(app: OpenAPIHono<AppEnv>): void }> = [health, docs, runJob];

export function buildApp(deps: AppDeps): OpenAPIHono<AppEnv> {
  const app = createBaseApp(deps);
  for (const operation of operations) operation.register(app);
  return app;
}
