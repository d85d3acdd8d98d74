import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SDK_DIR } from "../../dev/sdk/partner-document";
import { sdkReference } from "../../dev/sdk/reference";

/** sdk/REFERENCE.md is made from the SDK's types and comments (`npm run sdk:reference`), never by hand. */
describe("the SDK's reference", () => {
  it("is what the SDK's types and doc comments say now", async () => {
    const committed = await readFile(join(SDK_DIR, "REFERENCE.md"), "utf8");
    const made = sdkReference();
    expect(made).toContain("### class `Copm`");
    expect(made).toContain("| `createSettlementOrder` | Order a quote |");
    expect(committed).toBe(made);
  }, 60_000);
});
