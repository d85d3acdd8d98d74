import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ERRORS } from "../../lib/errors/registry";

/** The README's error table, row by row: code, HTTP status, retryable, nextAction, English message. */
function readmeErrorRows(): Map<string, string[]> {
  const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
  const rows = new Map<string, string[]>();
  for (const line of readme.split("\n")) {
    const match = /^\| `([A-Za-z_]+)` +\|(.*)\|$/.exec(line);
    if (!match?.[1] || !match[2]) continue;
    const cells = match[2].split("|").map((cell) => cell.trim().replaceAll("`", ""));
    if (cells.length === 4) rows.set(match[1], cells);
  }
  return rows;
}

describe("README", () => {
  it("lists every code of the error registry once, with its status, retryability, next action and message", () => {
    const rows = readmeErrorRows();
    const documented = Object.fromEntries(rows);
    const registry = Object.fromEntries(
      Object.entries(ERRORS).map(([code, d]) => [
        code,
        [String(d.status), String(d.retryable), d.nextAction, d.message.en],
      ]),
    );
    expect(documented).toEqual(registry);
  });
});

describe("docs/specification.md", () => {
  it("says every area the service serves is built, and none is still to come (issue 20, finding 15)", () => {
    const spec = readFileSync(new URL("../../docs/specification.md", import.meta.url), "utf8");
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
