// wrangler's build step: puts the browser scripts the worker's pages load where its static assets
// are served from, so no page loads a script from a CDN: the API reference's bundle (/docs), the
// BRE-B miniapp's client (/miniapp, bundled with the partner SDK it calls the service through) and
// the partner dashboard's (/dashboard). ASSETS_OUT writes them elsewhere (the browser suite serves a
// scratch copy, so it never rewrites dist/assets under a running worker).
import { copyFileSync, mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = process.env.ASSETS_OUT ? resolve(process.env.ASSETS_OUT) : join(root, "dist/assets");
const copied = [
  ["node_modules/@scalar/api-reference/dist/browser/standalone.js", "docs/scalar-api-reference.js"],
];
for (const [source, target] of copied) {
  mkdirSync(dirname(join(out, target)), { recursive: true });
  copyFileSync(join(root, source), join(out, target));
}

await build({
  absWorkingDir: root,
  entryPoints: ["functions/assets/miniapp.js"],
  outfile: join(out, "miniapp/miniapp.js"),
  bundle: true,
  format: "iife",
  platform: "browser",
  target: "es2022",
  // The SDK's TypeScript sources (its package's "source" export), as the repository's own code uses it.
  conditions: ["source"],
  minify: true,
  legalComments: "none",
  logLevel: "warning",
});

// The dashboard's script is TypeScript (functions/assets/, type-checked with its own tsconfig.json):
// compiled, not minified, so it stays readable as served.
await build({
  absWorkingDir: root,
  entryPoints: ["functions/assets/dashboard.ts"],
  outfile: join(out, "dashboard/dashboard.js"),
  bundle: true,
  format: "iife",
  platform: "browser",
  target: "es2022",
  legalComments: "none",
  logLevel: "warning",
});
