import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { createClient, custom, publicActions } from "viem";
import { describe, expect, it } from "vitest";
import { CHAIN_CLIENT_ACTIONS } from "../../lib/kernel/chain/client";
import { z as workerZ } from "../../lib/kernel/zod-worker";

const run = promisify(execFile);
const root = join(import.meta.dirname, "../..");

/** The sources the worker bundles from: everything under lib/, functions/ and schema/, tracked or new. */
async function bundledSources(): Promise<Array<{ path: string; text: string }>> {
  const listed = await Promise.all(
    [
      ["ls-files", "lib", "functions", "schema"],
      ["ls-files", "--others", "--exclude-standard", "lib", "functions", "schema"],
    ].map((args) => run("git", args, { cwd: root })),
  );
  const paths = [...new Set(listed.flatMap(({ stdout }) => stdout.split("\n")))].filter((path) =>
    /\.tsx?$/.test(path),
  );
  return Promise.all(
    paths.map(async (path) => ({
      path,
      text: withoutComments(await readFile(join(root, path), "utf8").catch(() => "")),
    })),
  );
}

/** Code only: block comments and line comments (not the `//` of a URL) go. */
function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:])\/\/.*$/gm, "$1");
}

/**
 * What the worker's build trims, checked against what the code uses: a member of `z` missing from
 * the worker's zod (wrangler.toml `[alias]`), or a viem public action missing from the chain client,
 * would be undefined in the deployed worker only, as Node loads the real ones.
 */
describe("the worker bundle's trimmed stand-ins", () => {
  it("gives `z` every member the code calls", async () => {
    // Used only as types (`z.infer<…>`, `z.core.$ZodIssue`): nothing of them is left at run time.
    const typeOnly = new Set(["infer", "input", "output", "core"]);
    const missing = new Set<string>();
    for (const { path, text } of await bundledSources()) {
      for (const match of text.matchAll(/(?<![\w$.])z\.([\w$]+)(.?)/g)) {
        const [, member, next] = match;
        if (member === undefined || next === "<") continue;
        if (typeOnly.has(member)) {
          // A type-only member used as a value would need to be in the worker's `z` too.
          if (/^\.[\w$]+\(/.test(text.slice((match.index ?? 0) + match[0].length - 1))) {
            missing.add(`${member} (${path})`);
          }
          continue;
        }
        if (!(member in workerZ)) missing.add(`${member} (${path})`);
      }
    }
    expect([...missing], "add these to lib/kernel/zod-worker.ts").toEqual([]);
  });

  it("gives the chain client every public action the code calls", async () => {
    const client = createClient({ transport: custom({ request: async () => null }) });
    // `call` is also every function's own method; the chain client's reads never call it directly.
    const actions = Object.keys(publicActions(client)).filter((name) => name !== "call");
    const bound = new Set<string>(CHAIN_CLIENT_ACTIONS);
    const missing = new Set<string>();
    for (const { path, text } of await bundledSources()) {
      for (const [, name] of text.matchAll(/\.([\w$]+)\s*\(/g)) {
        if (name && actions.includes(name) && !bound.has(name)) missing.add(`${name} (${path})`);
      }
    }
    expect([...missing], "add these to lib/kernel/chain/client.ts").toEqual([]);
  });
});
