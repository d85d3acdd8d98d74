import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../dev/paths";

/**
 * `npm run rehearsal -- --drive`, run as an operator runs it: the worker's bundle in MODE=live with
 * the unchanged mainnet profile on a local universe shaped as mainnet, driven through the public API
 * with live keys to a delivered settlement, a completed BRE-B payout, a confirmed swap and a returned
 * settlement.
 */
describe("the rehearsal of production", () => {
  it("drives a settlement, a payout, a swap and a return to their outcomes in live mode on chains 42161, 8453 and 42220", async () => {
    const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve) => {
      const child = spawn("npm", ["run", "rehearsal", "--", "--drive"], {
        cwd: PROJECT_ROOT,
        env: Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== "PORT")),
        stdio: ["ignore", "pipe", "pipe"],
      });
      let output = "";
      child.stdout.on("data", (chunk) => {
        output += chunk;
      });
      child.stderr.on("data", (chunk) => {
        output += chunk;
      });
      child.on("close", (exit) => resolve({ code: exit, output }));
    });
    // npm and wrangler colour nothing the assertions read; the output is taken as printed.
    const said = output;
    expect(code, said.slice(-6_000)).toBe(0);
    expect(said).toMatch(/^mode: live \(key copm_live_/m);
    for (const line of ["chain source: 42161", "chain intermediate: 8453", "chain destination: 42220"]) {
      expect(said).toContain(line);
    }
    expect(said).toMatch(/^ok {2}settlement: DELIVERED/m);
    expect(said).toMatch(/^ok {2}BRE-B payout: completed/m);
    expect(said).toMatch(/^ok {2}swap: confirmed/m);
    expect(said).toMatch(/^ok {2}settlement returned: RETURNED/m);
    // The delivered order's receipt summed (printSettlementReceipt throws otherwise).
    expect(said).toMatch(/sums: burned [\d.]+ USDC = Circle/);
  }, 600_000);
});
