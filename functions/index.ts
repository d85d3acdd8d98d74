import type { Hono } from "hono";
import { buildApp } from "../lib/composition/app";
import { type RateLimitBindings, workerDeps } from "../lib/composition/runtime";
import { misconfiguredApp } from "../lib/http/app";
import type { AppDeps } from "../lib/http/deps";
import { serviceContext } from "../lib/http/deps";
import { parseConfig } from "../lib/kernel/config";
import { createLogger } from "../lib/kernel/log";
import { runSweep } from "../lib/kernel/sweep";

type Built = { app: Hono; deps?: AppDeps };

/** Built once per isolate and per env: the env of one deployment does not change under it. */
const built = new WeakMap<object, Built>();

function appFor(env: Record<string, unknown>): Built {
  const cached = built.get(env);
  if (cached) return cached;
  const parsed = parseConfig(env);
  const made = parsed.ok ? workerDeps(parsed.config, env as RateLimitBindings) : parsed;
  const result: Built = made.ok
    ? { app: buildApp(made.deps) as unknown as Hono, deps: made.deps }
    : { app: misconfiguredApp(made.problems) };
  built.set(env, result);
  return result;
}

export default {
  fetch(request, env, ctx) {
    return appFor(env).app.fetch(request, env, ctx);
  },

  async scheduled(_controller, env, ctx) {
    const { deps } = appFor(env);
    if (!deps) {
      createLogger("error").error("sweep skipped: invalid configuration");
      return;
    }
    const session = deps.database.open();
    const log = deps.logger.child({ trigger: "cron" });
    ctx.waitUntil(
      runSweep(serviceContext(deps, session.db, log), deps.sweepHooks).finally(() => session.release()),
    );
  },
} satisfies ExportedHandler<Record<string, unknown>>;
