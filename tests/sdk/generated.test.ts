import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../dev/paths";
import { partnerDocument, SDK_DIR } from "../../dev/sdk/partner-document";
import { Copm } from "../../sdk/src";

const run = promisify(execFile);

interface SchemaObject {
  $ref?: string;
  properties?: Record<string, unknown>;
}

interface OperationObject {
  operationId: string;
  responses?: Record<string, { content?: Record<string, { schema?: SchemaObject }> }>;
}

async function filesUnder(root: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    files.set(relative(root, path), await readFile(path, "utf8"));
  }
  return files;
}

/** The committed SDK is what `npm run sdk:generate` makes from the app's document, and builds for any runtime. */
describe("the SDK's generated code", () => {
  let scratch: string;
  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), "copm-sdk-"));
    await run(join(PROJECT_ROOT, "dev/run-with-node22"), ["npx", "tsx", "dev/sdk/generate.ts", scratch], {
      cwd: PROJECT_ROOT,
    });
  }, 120_000);
  afterAll(() => rm(scratch, { recursive: true, force: true }));

  it("was generated from the app's current partner document (run `npm run sdk:generate` when this fails)", async () => {
    const committed = JSON.parse(await readFile(join(SDK_DIR, "openapi.json"), "utf8"));
    expect(committed).toEqual(JSON.parse(JSON.stringify(await partnerDocument())));
  });

  it("holds no admin or provider-callback operation", async () => {
    const paths = Object.keys((await partnerDocument()).paths ?? {});
    expect(paths.length).toBeGreaterThan(25);
    expect(paths.filter((path) => !path.startsWith("/api/integrations/") && path !== "/health")).toEqual([]);
  });

  it("pages every cursor-paged listing of the document through Copm.each", async () => {
    const listings: string[] = [];
    const document = await partnerDocument();
    const components = (document.components?.schemas ?? {}) as Record<string, SchemaObject>;
    for (const operations of Object.values(document.paths ?? {})) {
      for (const operation of Object.values(operations as Record<string, OperationObject>)) {
        const answer = operation.responses?.["200"]?.content?.["application/json"]?.schema;
        const schema = answer?.$ref ? components[answer.$ref.replace("#/components/schemas/", "")] : answer;
        // A statement's items are its lines (it also carries its opening and closing totals).
        if (schema?.properties?.nextCursor)
          listings.push(
            operation.operationId === "getStatement"
              ? "StatementLines"
              : operation.operationId.replace(/^list/, ""),
          );
      }
    }
    const each = new Copm({ baseUrl: "http://copm.test", apiKey: "copm_test_x" }).each;
    expect(listings.length).toBe(8);
    expect(Object.keys(each).sort()).toEqual(
      listings.map((name) => name[0]?.toLowerCase() + name.slice(1)).sort(),
    );
  });

  it("is reproducible: generating again makes the committed files byte for byte", async () => {
    const again = await filesUnder(join(scratch, "src", "generated"));
    const committed = await filesUnder(join(SDK_DIR, "src", "generated"));
    expect([...again.keys()].sort()).toEqual([...committed.keys()].sort());
    for (const [path, text] of committed) expect(again.get(path), path).toBe(text);
  });

  it("builds with the browser's and Workers' globals only (no Node types), declarations included", async () => {
    const tsc = join(SDK_DIR, "node_modules", ".bin", "tsc");
    const out = join(scratch, "dist");
    await run(tsc, ["-p", join(SDK_DIR, "tsconfig.json"), "--outDir", out], { cwd: SDK_DIR });
    const built = await filesUnder(out);
    expect(built.has("index.js")).toBe(true);
    expect(built.has("index.d.ts")).toBe(true);
  }, 120_000);
});
