import { numberToHex, type PublicClient, parseEther } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandboxChainOf, sandboxPublicClient } from "../../dev/chains";
import { route as adminGetHealth } from "../../functions/settlement/admin-health";
import { createLogger } from "../../lib/kernel/log";
import { runSweep } from "../../lib/kernel/sweep";
import { watchSettlementGas } from "../../lib/settlement/operator-health";
import type { Harness } from "../harness/app";
import { bodyOf } from "../harness/bodies";
import { deliveredOrder } from "../harness/burns";
import { quietContext } from "../harness/context";
import { settlementSuite } from "../harness/settlement";
import { adminRequest, type Tenant } from "../harness/tenants";

/**
 * GET /admin/health: what the operator watches, the settlement account's gas on every chain against
 * what it spends, each chain's head, and the vendors every order's calls reach.
 */
describe("the operator's health page", () => {
  let h: Harness;
  let tenant: Tenant;
  beforeAll(async () => {
    ({ h, tenant } = await settlementSuite());
  }, 60_000);
  afterAll(() => h.close());

  const health = async () => bodyOf(await adminRequest(h, "/admin/health"), adminGetHealth, 200);

  it("shows each chain's settlement account balance against its gas use, the head's age, and each vendor's last success", async () => {
    await deliveredOrder(h, tenant);
    const report = await health();
    expect(report.chains.map((chain) => chain.chainId).sort()).toEqual([31331, 31332, 31333, 31334]);
    for (const chain of report.chains) {
      expect(chain).toMatchObject({
        rpc: "up",
        balanceStatus: "ok",
        account: h.deps.settlement.accountAddress,
      });
      expect(BigInt(chain.balance ?? "0")).toBeGreaterThan(BigInt(chain.threshold ?? "0"));
      expect(chain.headAgeSeconds).toBeGreaterThanOrEqual(0);
      expect(chain.headAgeSeconds).toBeLessThan(120);
    }
    // The account paid the route, the partner-less delivery and the exchange: its spend shows where it paid.
    const spent = (chainId: number) =>
      BigInt(report.chains.find((chain) => chain.chainId === chainId)?.dailyGasSpend ?? "0");
    expect(spent(31332)).toBeGreaterThan(0n);
    expect(spent(31333)).toBeGreaterThan(0n);
    expect(spent(31331)).toBe(0n);
    const vendors = Object.fromEntries(report.vendors.map((vendor) => [vendor.vendor, vendor]));
    expect(vendors["circle-iris"]?.lastSuccessAt).not.toBeNull();
    expect(vendors.lifi?.lastSuccessAt).not.toBeNull();
    expect(vendors.lifi?.blockedUntil).toBeNull();
  });

  it("marks a chain low once the account's balance falls under its threshold, and the cron logs an error line for it", async () => {
    if (!h.network) throw new Error("no chains");
    const destination = sandboxPublicClient(sandboxChainOf(h.network, "destination")) as PublicClient;
    const account = h.deps.settlement.accountAddress as `0x${string}`;
    await destination.request({
      method: "hardhat_setBalance",
      params: [account, numberToHex(parseEther("0.000001"))],
    } as never);
    const low = (await health()).chains.find((chain) => chain.chainId === 31333);
    expect(low).toMatchObject({ balanceStatus: "low", balance: parseEther("0.000001").toString() });

    const lines: Record<string, unknown>[] = [];
    const ctx = { ...quietContext(h), log: createLogger("info", {}, (line) => lines.push(JSON.parse(line))) };
    const [report] = await runSweep(ctx, [watchSettlementGas]);
    expect(report).toEqual({ hook: "watch-settlement-gas", acted: 1 });
    const alert = lines.find((line) => line.msg === "settlement account gas low");
    expect(alert).toMatchObject({ level: "error", chainId: 31333, account, balance: "1000000000000" });

    await destination.request({
      method: "hardhat_setBalance",
      params: [account, numberToHex(parseEther("1000"))],
    } as never);
    expect((await health()).chains.every((chain) => chain.balanceStatus === "ok")).toBe(true);
  });

  it("is the operator's: a partner key is refused", async () => {
    const response = await h.app.request("/admin/health", {
      headers: { authorization: `Bearer ${tenant.apiKey}` },
    });
    expect(response.status).toBe(401);
  });
});
