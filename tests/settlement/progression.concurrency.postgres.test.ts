import { eq, inArray } from "drizzle-orm";
import type { Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandboxChainOf, sandboxPublicClient } from "../../dev/chains";
import { erc20Abi } from "../../lib/kernel/chain/abis";
import { advanceOrder } from "../../lib/settlement/progress/advance";
import { settlementEvents, settlementOrders, settlementTransactions } from "../../schema";
import { createHarness, type Harness } from "../harness/app";
import { type PlacedOrder, placeOrder, sendPlan, submitBurn } from "../harness/burns";
import { quietContext } from "../harness/context";
import { enableBurnPlan } from "../harness/settlement";
import { createTenant, type Tenant } from "../harness/tenants";

const serverUrl = process.env.TEST_DATABASE_URL;
if (!serverUrl)
  console.warn("progression.concurrency: TEST_DATABASE_URL is not set; skipping the real Postgres races.");

const ORDERS = 50;

describe.skipIf(!serverUrl)("concurrent orders on one settlement account, on real PostgreSQL", () => {
  let h: Harness;
  let tenant: Tenant;
  beforeAll(async () => {
    h = await createHarness({ chains: true, databaseUrl: serverUrl as string });
    tenant = await createTenant(h);
    await enableBurnPlan(h, tenant);
  }, 60_000);
  afterAll(() => h?.close());

  const ctx = () => quietContext(h);

  it(`${ORDERS} orders burned at once and advanced by concurrent jobs all reach DELIVERED, each payment once, nonces gapless`, async () => {
    const placed: PlacedOrder[] = [];
    for (let i = 0; i < ORDERS; i++) placed.push(await placeOrder(h, tenant));
    const hashes = await Promise.all(placed.map((order) => sendPlan(h, order)));
    const burns = await Promise.all(
      placed.map((order, i) => submitBurn(h, tenant, order.orderId, hashes[i] as Hex)),
    );
    expect(burns.map((response) => response.status)).toEqual(Array(ORDERS).fill(200));

    const ids = placed.map((order) => order.orderId);
    const statuses = async () =>
      h.database.db.select().from(settlementOrders).where(inArray(settlementOrders.id, ids));
    // Like QStash delivering at once: two jobs per order per poll, all in parallel.
    for (let round = 0; round < 120; round++) {
      const orders = await statuses();
      if (orders.every((order) => order.status === "DELIVERED")) break;
      await Promise.all(ids.flatMap((id) => [advanceOrder(ctx(), id), advanceOrder(ctx(), id)]));
      h.clock.advance(h.deps.config.SETTLEMENT_POLL_SECONDS * 1000);
    }
    const orders = await statuses();
    expect(orders.map((order) => `${order.status}/${order.health}`)).toEqual(
      Array(ORDERS).fill("DELIVERED/HEALTHY"),
    );

    // Every payment exactly once: one route, one exchange, one delivery per order, all mined.
    const sent = await h.database.db.select().from(settlementTransactions);
    for (const id of ids) {
      const ofOrder = sent.filter((t) => t.orderId === id);
      expect(ofOrder.map((t) => t.purpose).sort(), id).toEqual(["delivery", "exchange", "route"]);
      expect(
        ofOrder.every((t) => t.status === "success"),
        id,
      ).toBe(true);
    }
    // The orders shared a standing allowance per chain (SETTLEMENT_ALLOWANCE_PAYMENTS payments'
    // worth), topped up only when the payments in flight would have spent it.
    const topUps = Math.ceil(ORDERS / h.deps.config.SETTLEMENT_ALLOWANCE_PAYMENTS);
    const allowances = sent.filter((t) => t.purpose === "allowance");
    expect(allowances.map((t) => `${t.chainId}:${t.status}:${t.orderId}`).sort()).toEqual([
      ...Array(topUps).fill("31332:success:null"),
      ...Array(topUps).fill("31333:success:null"),
    ]);

    // The settlement account's nonces on each chain: gapless, each the nonce of the recorded
    // transaction the chain mined, and nothing left unmined.
    const network = h.network;
    if (!network) throw new Error("no chains");
    for (const role of ["intermediate", "destination"] as const) {
      const chain = sandboxChainOf(network, role);
      const reader = sandboxPublicClient(chain);
      const onChain = sent.filter((t) => t.chainId === chain.chainId);
      expect(
        onChain.every((t) => t.status === "success"),
        role,
      ).toBe(true);
      const nonces = onChain.map((t) => t.nonce).sort((a, b) => a - b);
      const first = nonces[0] ?? 0;
      expect(nonces, role).toEqual(nonces.map((_, i) => first + i));
      const account = onChain[0]?.fromAddress as Hex;
      expect(await reader.getTransactionCount({ address: account }), role).toBe(first + nonces.length);
      for (const t of onChain) {
        const mined = await reader.getTransaction({ hash: t.hash as Hex });
        expect(mined.nonce, `${role} ${t.purpose}`).toBe(t.nonce);
      }
    }

    // Each user holds exactly what its order's timeline says was delivered.
    const destination = sandboxChainOf(network, "destination");
    const reader = sandboxPublicClient(destination);
    const delivered = await h.database.db
      .select()
      .from(settlementEvents)
      .where(eq(settlementEvents.kind, "DELIVERED"));
    for (const order of placed) {
      const entry = delivered.find((event) => event.orderId === order.orderId);
      const balance = await reader.readContract({
        address: destination.contracts.copm as Hex,
        abi: erc20Abi,
        functionName: "balanceOf",
        args: [order.user.address],
      });
      expect(balance.toString(), order.orderId).toBe(String(entry?.detail?.copm));
    }
  }, 240_000);
});
