import { ne } from "drizzle-orm";
import type { PublicClient } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandboxPublicClient } from "../../dev/chains";
import { runSweep } from "../../lib/kernel/sweep";
import { findUnclaimedMints } from "../../lib/settlement";
import { reconcileResetChains } from "../../lib/settlement/progress/chain-reset";
import { settlementMintScans, settlementMints, settlementTransactions } from "../../schema";
import { createHarness, type Harness } from "../harness/app";
import { placeOrder, sendPlan, submitBurn } from "../harness/burns";
import { quietContext } from "../harness/context";
import { enableBurnPlan, readOrder } from "../harness/settlement";
import { createTenant, type Tenant } from "../harness/tenants";

/**
 * The local stack keeps its database across restarts but its chains live in memory. These tests
 * restart the chains the way `npm run dev` does (back to their freshly deployed state, here by
 * reverting every chain to a snapshot taken right after deployment) and prove the service neither
 * pays from nonces nor trusts allowances that the fresh chains never saw.
 */
describe("local chains started afresh under a kept database", () => {
  let h: Harness;
  let tenant: Tenant;
  let snapshots: Array<{ client: PublicClient; id: unknown }>;
  beforeAll(async () => {
    h = await createHarness({ chains: true });
    tenant = await createTenant(h);
    await enableBurnPlan(h, tenant);
    if (!h.network) throw new Error("no chains");
    snapshots = await Promise.all(
      h.network.chains.map(async (chain) => {
        const client = sandboxPublicClient(chain) as PublicClient;
        return { client, id: await client.request({ method: "evm_snapshot", params: [] } as never) };
      }),
    );
  }, 60_000);
  afterAll(() => h.close());

  const read = (orderId: string) => readOrder(h, tenant, orderId);
  const drainUntil = async (orderId: string, status: string) => {
    for (let poll = 0; poll < 30 && (await read(orderId)).status !== status; poll++) {
      await h.jobs.drain();
      h.clock.advance(5_000);
    }
    return read(orderId);
  };
  // A reverted snapshot is used up: take it again for the next restart.
  const restartChains = async () => {
    snapshots = await Promise.all(
      snapshots.map(async ({ client, id }) => {
        expect(await client.request({ method: "evm_revert", params: [id] } as never)).toBe(true);
        return { client, id: await client.request({ method: "evm_snapshot", params: [] } as never) };
      }),
    );
  };
  const reconcile = () => {
    if (!h.network) throw new Error("no chains");
    return reconcileResetChains(
      quietContext(h),
      h.network.chains.map((chain) => chain.chainId),
    );
  };

  it("keeps a delivered order readable, sets the in-flight one aside as STUCK with CHAIN_RESET, and delivers a new order from the fresh chains' nonces and allowances", async () => {
    const delivered = await placeOrder(h, tenant);
    expect((await submitBurn(h, tenant, delivered.orderId, await sendPlan(h, delivered))).status).toBe(200);
    expect((await drainUntil(delivered.orderId, "DELIVERED")).status).toBe("DELIVERED");

    // A second order is burned and on its way when the chains go away.
    const inFlight = await placeOrder(h, tenant);
    expect((await submitBurn(h, tenant, inFlight.orderId, await sendPlan(h, inFlight))).status).toBe(200);
    await h.jobs.drain();
    const before = await read(inFlight.orderId);
    expect(before.status).not.toBe("DELIVERED");

    // The mints found so far (the delivered order's) are on the old chains only.
    await runSweep(quietContext(h), [findUnclaimedMints]);
    expect((await h.database.db.select().from(settlementMints)).length).toBeGreaterThan(0);
    await restartChains();
    const reconciled = await reconcile();
    expect(reconciled.stuckOrders).toBe(1);
    expect(reconciled.forgottenMints).toBeGreaterThan(0);
    expect(await h.database.db.select().from(settlementMints)).toEqual([]);
    expect(await h.database.db.select().from(settlementMintScans)).toEqual([]);
    expect(reconciled.orphanedTransactions).toBeGreaterThan(0);
    // Every transaction recorded on the restarted chains is orphaned: none can be watched again.
    const live = await h.database.db
      .select()
      .from(settlementTransactions)
      .where(ne(settlementTransactions.status, "orphaned"));
    expect(live).toEqual([]);

    expect(await read(delivered.orderId)).toMatchObject({ status: "DELIVERED", health: "HEALTHY" });
    const setAside = await read(inFlight.orderId);
    expect(setAside).toMatchObject({ status: before.status, health: "STUCK" });
    expect(setAside.timeline.at(-1)?.kind).toBe("CHAIN_RESET");

    // New orders pay from the fresh chains: nonces from zero, allowances granted again.
    const fresh = await placeOrder(h, tenant);
    expect((await submitBurn(h, tenant, fresh.orderId, await sendPlan(h, fresh))).status).toBe(200);
    expect(await drainUntil(fresh.orderId, "DELIVERED")).toMatchObject({
      status: "DELIVERED",
      health: "HEALTHY",
    });

    // The set-aside order never moves again, and a second restart does not tell it twice.
    expect(await read(inFlight.orderId)).toMatchObject({ status: before.status, health: "STUCK" });
    await restartChains();
    expect((await reconcile()).stuckOrders).toBe(0);
    const told = (await read(inFlight.orderId)).timeline.filter((entry) => entry.kind === "CHAIN_RESET");
    expect(told).toHaveLength(1);
  }, 120_000);
});
