import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../dev/paths";

/** The README's quick start is the file `npm run quickstart` runs, not a copy that may drift. */
describe("the README's SDK quick start", () => {
  it("is dev/quickstart.ts from its first import on", async () => {
    const readme = await readFile(join(PROJECT_ROOT, "README.md"), "utf8");
    const script = await readFile(join(PROJECT_ROOT, "dev/quickstart.ts"), "utf8");
    const marker = readme.indexOf("<!-- quickstart: dev/quickstart.ts");
    expect(marker).toBeGreaterThan(0);
    const block = /```ts\n([\s\S]*?)\n```/.exec(readme.slice(marker))?.[1];
    expect(block).toBe(script.slice(script.indexOf("import ")).trimEnd());
  });
});
