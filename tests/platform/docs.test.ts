import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { referencePages } from "../../dev/docs-reference";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** README.md and every Markdown page under docs/. */
function markdownFiles(): string[] {
  const found = [join(ROOT, "README.md")];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".md")) found.push(path);
    }
  };
  walk(join(ROOT, "docs"));
  return found;
}

describe("the documentation", () => {
  it("holds the reference pages exactly as the code makes them (npm run docs)", () => {
    for (const [path, text] of Object.entries(referencePages())) {
      expect(readFileSync(join(ROOT, path), "utf8"), `${path}: run npm run docs`).toBe(text);
    }
  });

  it("links only to files that exist", () => {
    const broken: string[] = [];
    for (const file of markdownFiles()) {
      const text = readFileSync(file, "utf8").replace(/```[\s\S]*?```/g, "");
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (!target || /^(https?:|mailto:|#)/.test(target)) continue;
        const path = join(dirname(file), decodeURI(target.split("#")[0] ?? ""));
        if (!existsSync(path)) broken.push(`${relative(ROOT, file)} → ${target}`);
      }
    }
    expect(broken).toEqual([]);
    expect(markdownFiles().length).toBeGreaterThan(20);
  });

  it("keeps the README short: what it is, the commands, the layout and links", () => {
    expect(readFileSync(join(ROOT, "README.md"), "utf8").length).toBeLessThan(8_000);
  });

  it("says in docs/specification.md that every area the service serves is built (issue 20, finding 15)", () => {
    const spec = readFileSync(join(ROOT, "docs/specification.md"), "utf8");
    const built = (/\*\*What is built today:\*\*([\s\S]*?)\n\n/.exec(spec)?.[1] ?? "").replace(/\s+/g, " ");
    expect(built).not.toMatch(/not built|not exist|until they are/);
    for (const area of [
      "settlement",
      "BRE-B payouts",
      "wallet sign-in",
      "email OTP",
      "KYC",
      "swaps",
      "outbound webhooks",
      "partner dashboard",
      "miniapp",
    ]) {
      expect(built, area).toContain(area);
    }
  });
});
