import { eq } from "drizzle-orm";
import type { Hex } from "viem";
import { describe, expect, it } from "vitest";
import { type SandboxChain, sandboxChainOf, sandboxPublicClient } from "../../dev/chains";
import { settlementOrders, settlementTransactions } from "../../schema";
import { createHarness, HARNESS_CLOCK_START } from "../harness/app";
import { placeOrder, sendPlan, submitBurn } from "../harness/burns";
import { enableBurnPlan } from "../harness/settlement";
import { createTenant } from "../harness/tenants";

const YEAR_MS = 365 * 24 * 60 * 60 * 1000;
const secondsOf = (date: Date) => BigInt(Math.floor(date.getTime() / 1000));

// The sandbox's attestation and relay wait a delay counted from a block's timestamp by the service's
// clock: if chain time came from the wall, a harness clock behind it would never see the delay pass,
// and one ahead of it would see every delay passed at once.
describe("settlement progression on any date", () => {
  for (const [when, clockStart] of [
    ["a year after", new Date(HARNESS_CLOCK_START.getTime() + YEAR_MS)],
    ["a year before", new Date(HARNESS_CLOCK_START.getTime() - YEAR_MS)],
  ] as const) {
    it(`delivers with the harness clock started ${when} its default, every block stamped by that clock`, async () => {
      const h = await createHarness({ chains: true, clockStart });
      try {
        const network = h.network;
        if (!network) throw new Error("no chains");
        const blockTimeOf = async (chain: SandboxChain, hash: Hex) => {
          const reader = sandboxPublicClient(chain);
          const receipt = await reader.getTransactionReceipt({ hash });
          return (await reader.getBlock({ blockNumber: receipt.blockNumber })).timestamp;
        };
        const tenant = await createTenant(h);
        await enableBurnPlan(h, tenant);
        const placed = await placeOrder(h, tenant, undefined, "120");
        h.clock.advance(1_000);
        const burnHash = await sendPlan(h, placed);
        // The user's burn is mined at the harness clock's second, not the wall's.
        expect(await blockTimeOf(sandboxChainOf(network, "source"), burnHash)).toBe(secondsOf(h.clock.now()));
        expect((await submitBurn(h, tenant, placed.orderId, burnHash)).status).toBe(200);

        const status = async () =>
          (
            await h.database.db.select().from(settlementOrders).where(eq(settlementOrders.id, placed.orderId))
          )[0]?.status;
        for (let poll = 0; poll < 20 && (await status()) !== "DELIVERED"; poll++) {
          await h.jobs.drain();
          h.clock.advance(5_000);
        }
        expect(await status()).toBe("DELIVERED");

        // Every payment the service made is mined in the second its clock recorded it.
        const sent = await h.database.db
          .select()
          .from(settlementTransactions)
          .where(eq(settlementTransactions.orderId, placed.orderId));
        expect(sent.map((t) => t.purpose).sort()).toEqual(["delivery", "exchange", "route"]);
        for (const transaction of sent) {
          const chain = network.chains.find((candidate) => candidate.chainId === transaction.chainId);
          if (!chain) throw new Error(`no chain ${transaction.chainId}`);
          expect(await blockTimeOf(chain, transaction.hash as Hex), transaction.purpose).toBe(
            secondsOf(transaction.createdAt),
          );
        }
        // And no chain has run ahead of the clock.
        for (const chain of network.chains) {
          expect((await sandboxPublicClient(chain).getBlock()).timestamp, chain.role).toBeLessThanOrEqual(
            secondsOf(h.clock.now()),
          );
        }
      } finally {
        await h.close();
      }
    }, 60_000);
  }
});
