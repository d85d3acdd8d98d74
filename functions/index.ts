import { buildApp } from "../lib/composition/app";
import { isolateApp } from "../lib/composition/isolate";
import { serviceContext } from "../lib/http/deps";
import { createLogger } from "../lib/kernel/log";
import { runSweep } from "../lib/kernel/sweep";

/** The API worker: the partner API, the operator's routes, jobs and callbacks, and the cron's sweep. */
const appFor = isolateApp(buildApp);

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
