import { parseUnits } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orderHookData } from "../../lib/kernel/chain/forwarding";
import type { ConfiguredChain } from "../../lib/kernel/chain/registry";
import { scanMints } from "../../lib/settlement/unclaimed/scan";
import { settlementMintScans, settlementMints } from "../../schema";
import type { Harness } from "../harness/app";
import { burnWith, placeOrder, sourceOf } from "../harness/burns";
import { quietContext } from "../harness/context";
import { settlementSuite } from "../harness/settlement";
import type { Tenant } from "../harness/tenants";

/** The scan's context with the intermediate chain's client changed, and the config as production's. */
function contextWith(
  h: Harness,
  change: {
    fromBlock?: bigint;
    client?: (client: ConfiguredChain["client"]) => ConfiguredChain["client"];
    profile?: "local" | "testnet" | "mainnet";
  },
) {
  const ctx = quietContext(h);
  const { SETTLEMENT_MINT_SCAN_FROM_BLOCK: _local, ...config } = ctx.config;
  const chains = ctx.chains.chains.map((chain) =>
    chain.role === "intermediate" && change.client
      ? { ...chain, client: change.client(chain.client) }
      : chain,
  );
  return {
    ...ctx,
    config: {
      ...config,
      ...(change.fromBlock === undefined ? {} : { SETTLEMENT_MINT_SCAN_FROM_BLOCK: change.fromBlock }),
    },
    chains: {
      ...ctx.chains,
      ...(change.profile ? { profile: change.profile } : {}),
      chains,
      byRole: (role: string) => chains.find((chain) => chain.role === role),
    },
  } as typeof ctx;
}

/** A node five blocks behind the chain, noting where each log search it is asked starts. */
function lagged(ranges: bigint[]) {
  return (client: ConfiguredChain["client"]) =>
    ({
      ...client,
      getBlockNumber: async () => (await client.getBlockNumber()) - 5n,
      getLogs: (async (args: { fromBlock: bigint }) => {
        ranges.push(args.fromBlock);
        return client.getLogs(args as never);
      }) as never,
    }) as typeof client;
}

describe("the mint scan's cursor", () => {
  let h: Harness;
  let tenant: Tenant;
  beforeAll(async () => {
    ({ h, tenant } = await settlementSuite());
  }, 60_000);
  afterAll(() => h.close());

  it("with SETTLEMENT_MINT_SCAN_FROM_BLOCK unset (production's default) starts at the head and keeps its place", async () => {
    const ctx = contextWith(h, {});
    expect(ctx.config.SETTLEMENT_MINT_SCAN_FROM_BLOCK).toBeUndefined();
    await scanMints(ctx); // the first search: "starts at the head then"
    const placed = await placeOrder(h, tenant);
    const txHash = await burnWith(h, placed, {
      amount: parseUnits("3", 6),
      maxFee: 0n,
      hookData: orderHookData("ord_nobody"),
    });
    // Circle attests and forwards the burn (the local Circle does once asked about it).
    for (let look = 0; look < 20; look++) {
      await (
        await fetch(
          `${h.vendors?.circle.url}/v2/messages/${sourceOf(h).cctpDomain}?transactionHash=${txHash}`,
        )
      ).arrayBuffer();
      h.clock.advance(2_000);
    }
    let found = 0;
    for (let sweep = 0; sweep < 5; sweep++) found += await scanMints(ctx);
    const cursor = await h.database.db.select().from(settlementMintScans);
    const mints = await h.database.db.select().from(settlementMints);
    // Control: the same mint is there for a search that starts at block 0.
    const control = await scanMints(quietContext(h));
    expect({ found, cursors: cursor.length, mints: mints.length, control }).toEqual({
      found: 1,
      cursors: 1,
      mints: 1,
      control: 0,
    });
  });

  it("waits for a lagging RPC node (head 5 blocks behind the last search) on a live chain, and re-reads only a reset local chain", async () => {
    const honest = quietContext(h);
    await scanMints(honest);
    const [before] = await h.database.db.select().from(settlementMintScans);
    const ranges: bigint[] = [];
    const lagging = contextWith(h, { fromBlock: 0n, profile: "mainnet", client: lagged(ranges) });
    expect(await scanMints(lagging)).toBe(0);
    expect(before?.nextBlock).toBeGreaterThan(6n);
    // It waits for the node to catch up: no search, the cursor where it was (before the fix it
    // searched again from block 0).
    expect(ranges).toEqual([]);
    const [after] = await h.database.db.select().from(settlementMintScans);
    expect(after?.nextBlock).toBe(before?.nextBlock);
    // A local chain behind the cursor was reset: its mints are read again from its start.
    const reset = contextWith(h, { fromBlock: 0n, profile: "local", client: lagged(ranges) });
    await scanMints(reset);
    expect(ranges[0]).toBe(0n);
  });
});
