import { eq, inArray } from "drizzle-orm";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOCAL_SETTLEMENT_POOL_KEYS, localSettlementPoolVars } from "../../dev/local-defaults";
import { settlementOrders, settlementTransactions } from "../../schema";
import type { Harness } from "../harness/app";
import { placeOrder, sendPlan, submitBurn } from "../harness/burns";
import { readOrder, settlementSuite } from "../harness/settlement";
import { adminRequest, type Tenant } from "../harness/tenants";

/**
 * A pool of settlement accounts (docs/settlement.md, "Settlement accounts"): new orders are spread
 * across the accounts SETTLEMENT_ACCOUNT_KEYS adds to the first; each order's mint goes to its own
 * account (its burn plan names it) and every transaction of its legs is sent from it, on that
 * account's own nonce queue.
 */
describe("a pool of four settlement accounts", () => {
  let h: Harness;
  let tenant: Tenant;
  const pool = () => h.deps.settlement.accounts.map((account) => account.address.toLowerCase());

  beforeAll(async () => {
    ({ h, tenant } = await settlementSuite({ env: localSettlementPoolVars(4) }));
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  it("spreads twelve orders across the accounts, and each order's mint and payments are its own account's", async () => {
    expect(pool()).toHaveLength(4);
    expect(pool().slice(1)).toEqual(
      LOCAL_SETTLEMENT_POOL_KEYS.slice(0, 3).map((key) => privateKeyToAccount(key).address.toLowerCase()),
    );
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      const placed = await placeOrder(h, tenant, undefined, String(20 + i));
      // The plan's burn names the order's account as the mint's recipient (the hook's forwarding recipient).
      expect(JSON.stringify(placed.plan).toLowerCase()).toContain((await accountOf(placed.orderId)).slice(2));
      expect((await submitBurn(h, tenant, placed.orderId, await sendPlan(h, placed))).status).toBe(200);
      ids.push(placed.orderId);
    }
    for (let poll = 0; poll < 40; poll++) {
      const statuses = await Promise.all(ids.map(async (id) => (await readOrder(h, tenant, id)).status));
      if (statuses.every((status) => status === "DELIVERED")) break;
      await h.jobs.drain();
      h.clock.advance(1_000);
    }
    for (const id of ids) expect((await readOrder(h, tenant, id)).status).toBe("DELIVERED");

    const orders = await h.database.db
      .select({ id: settlementOrders.id, account: settlementOrders.settlementAccount })
      .from(settlementOrders)
      .where(inArray(settlementOrders.id, ids));
    const used = new Set(orders.map((order) => order.account?.toLowerCase()));
    expect(used.size).toBeGreaterThanOrEqual(3);
    for (const account of used) expect(pool()).toContain(account);

    const sent = await h.database.db
      .select()
      .from(settlementTransactions)
      .where(inArray(settlementTransactions.orderId, ids));
    expect(sent.length).toBeGreaterThanOrEqual(ids.length * 2);
    for (const transaction of sent) {
      const order = orders.find((one) => one.id === transaction.orderId);
      expect(transaction.fromAddress.toLowerCase(), transaction.purpose).toBe(order?.account?.toLowerCase());
    }
    // Each account's nonces on a chain run without a gap or a repeat: its own queue.
    const queues = new Map<string, number[]>();
    for (const transaction of sent.filter((one) => one.status !== "replaced")) {
      const key = `${transaction.chainId}:${transaction.fromAddress.toLowerCase()}`;
      queues.set(key, [...(queues.get(key) ?? []), transaction.nonce]);
    }
    expect(queues.size).toBeGreaterThan(3);
    for (const [queue, nonces] of queues) expect(new Set(nonces).size, queue).toBe(nonces.length);
  });

  it("shows the operator each account's gas on every chain", async () => {
    const response = await adminRequest(h, "/admin/health");
    expect(response.status).toBe(200);
    const health = (await response.json()) as { chains: Array<{ chainId: number; account: string | null }> };
    const destination = h.deps.chains.byRole("destination")?.chainId;
    const rows = health.chains.filter((row) => row.chainId === destination);
    expect(rows.map((row) => row.account?.toLowerCase()).sort()).toEqual([...pool()].sort());
  });

  it("refuses any account of the pool as an organization's fee address", async () => {
    const response = await adminRequest(h, `/admin/organizations/${tenant.organizationId}`, {
      method: "PATCH",
      body: { partnerFeeBps: 10, partnerFeeAddress: h.deps.settlement.accounts[2]?.address },
    });
    expect(response.status).toBe(400);
  });

  async function accountOf(orderId: string): Promise<string> {
    const [order] = await h.database.db
      .select({ account: settlementOrders.settlementAccount })
      .from(settlementOrders)
      .where(eq(settlementOrders.id, orderId));
    if (!order?.account) throw new Error(`order ${orderId} has no account`);
    return order.account.toLowerCase();
  }
});
