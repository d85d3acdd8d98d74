// wrangler's build step: puts the API reference's browser bundle where the worker's static
// assets are served from, so /docs loads no script from a CDN.
import { copyFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const bundle = join(root, "node_modules/@scalar/api-reference/dist/browser/standalone.js");
const target = join(root, "dist/assets/docs/scalar-api-reference.js");
mkdirSync(dirname(target), { recursive: true });
copyFileSync(bundle, target);
