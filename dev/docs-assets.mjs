// wrangler's build step: puts the browser scripts the worker's pages load where its static assets
// are served from, so no page loads a script from a CDN: the API reference's bundle (/docs), the
// BRE-B miniapp's client (/miniapp) and the partner dashboard's (/dashboard). ASSETS_OUT writes
// them elsewhere (the browser suite serves a scratch copy, so it never rewrites dist/assets under a
// running worker).
import { copyFileSync, mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = process.env.ASSETS_OUT ? resolve(process.env.ASSETS_OUT) : join(root, "dist/assets");
const assets = [
  ["node_modules/@scalar/api-reference/dist/browser/standalone.js", "docs/scalar-api-reference.js"],
  ["functions/assets/miniapp.js", "miniapp/miniapp.js"],
  ["functions/assets/dashboard.js", "dashboard/dashboard.js"],
];
for (const [source, target] of assets) {
  mkdirSync(dirname(join(out, target)), { recursive: true });
  copyFileSync(join(root, source), join(out, target));
}
