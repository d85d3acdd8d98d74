/**
 * `npm run sdk:generate`: writes the partner document (every operation of the partner API and
 * `/health`, from the app's own OpenAPI document) to sdk/openapi.json, and the SDK's generated code
 * from it to sdk/src/generated with @hey-api/openapi-ts. tests/sdk/generated.test.ts fails when the
 * committed files and the app disagree.
 */
import { mkdir, rm, writeFile } from "node:fs/promises";
import { registerHooks } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { PROJECT_ROOT } from "../paths";
import { partnerDocument, SDK_DIR } from "./partner-document";

// The generator drives TypeScript's compiler API, which TypeScript 7 (the project's compiler) no
// longer ships: the sdk workspace carries TypeScript 6 for it, and the generator is pointed there.
const sdkPackage = pathToFileURL(join(PROJECT_ROOT, "sdk", "package.json")).href;
registerHooks({
  resolve(specifier, context, nextResolve) {
    if (specifier === "typescript" && context.parentURL?.includes("/@hey-api/")) {
      return nextResolve(specifier, { ...context, parentURL: sdkPackage });
    }
    return nextResolve(specifier, context);
  },
});
const { createClient } = await import("@hey-api/openapi-ts");

/** Writes sdk/openapi.json and the generated code under `root` (the sdk folder, or a scratch copy). */
export async function generateSdk(root = SDK_DIR): Promise<void> {
  const input = join(root, "openapi.json");
  await mkdir(root, { recursive: true });
  await writeFile(input, `${JSON.stringify(await partnerDocument(), null, 2)}\n`);
  const output = join(root, "src", "generated");
  await rm(output, { recursive: true, force: true });
  await createClient({
    input,
    output: { path: output },
    plugins: [
      { name: "@hey-api/client-fetch", throwOnError: true },
      "@hey-api/typescript",
      { name: "@hey-api/sdk", operations: { strategy: "single", containerName: "CopmApi" } },
    ],
    logs: { level: "silent" },
  });
  const version = ((await partnerDocument()).info as { "x-api-version"?: string })["x-api-version"];
  await writeFile(
    join(output, "api-version.gen.ts"),
    `// Written by dev/sdk/generate.ts from the document's info["x-api-version"].\n\n/** The dated API version this SDK was generated for: sent as API-Version on every call. */\nexport const API_VERSION = ${JSON.stringify(version)};\n`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // A folder to write to instead of sdk/ (the drift test regenerates into a scratch copy).
  const root = process.argv[2] ?? SDK_DIR;
  await generateSdk(root);
  process.stdout.write(`sdk: ${join(root, "openapi.json")} and ${join(root, "src/generated")}\n`);
}
