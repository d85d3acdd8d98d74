import { isolateApp } from "../lib/composition/isolate";
import { buildPagesApp } from "../lib/composition/pages";

/**
 * The pages worker: the partner dashboard and the BRE-B miniapp's page. It has no route of its own;
 * the API worker hands it those paths over a service binding (wrangler.pages.toml, lib/http/pages.ts).
 */
const appFor = isolateApp(buildPagesApp);

export default {
  fetch(request, env, ctx) {
    return appFor(env).app.fetch(request, env, ctx);
  },
} satisfies ExportedHandler<Record<string, unknown>>;
