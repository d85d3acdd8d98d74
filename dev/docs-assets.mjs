// wrangler's build step: puts the browser scripts the worker's pages load where its static assets
// are served from, so no page loads a script from a CDN: the API reference's bundle (/docs), the
// BRE-B miniapp's client (/miniapp, bundled with the partner SDK it calls the service through) and
// the partner dashboard's (/dashboard). The miniapp's and the dashboard's are TypeScript
// (functions/assets/, type-checked by `npm run typecheck` with its own tsconfig.json): esbuild
// compiles each into one classic script. ASSETS_OUT writes them elsewhere (the browser suite serves
// a scratch copy, so it never rewrites dist/assets under a running worker).
import { copyFileSync, mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = process.env.ASSETS_OUT ? resolve(process.env.ASSETS_OUT) : join(root, "dist/assets");
const reference = join(out, "docs/scalar-api-reference.js");
mkdirSync(dirname(reference), { recursive: true });
copyFileSync(join(root, "node_modules/@scalar/api-reference/dist/browser/standalone.js"), reference);

const browserScript = {
  absWorkingDir: root,
  bundle: true,
  format: "iife",
  platform: "browser",
  target: "es2022",
  legalComments: "none",
  logLevel: "warning",
};

await build({
  ...browserScript,
  entryPoints: ["functions/assets/miniapp/index.ts"],
  outfile: join(out, "miniapp/miniapp.js"),
  // The SDK's TypeScript sources (its package's "source" export), as the repository's own code uses it.
  conditions: ["source"],
  minify: true,
});

// The dashboard's script, not minified: its few lines stay readable as served.
await build({
  ...browserScript,
  entryPoints: ["functions/assets/dashboard.ts"],
  outfile: join(out, "dashboard/dashboard.js"),
});
