import { eq } from "drizzle-orm";
import { createPublicClient, custom, http, toHex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localSettlementVars } from "../../dev/local-defaults";
import { chainRegistry } from "../../lib/kernel/chain/registry";
import { verifyDeposit } from "../../lib/settlement/burns/verify-deposit";
import { settlementChains } from "../../lib/settlement/pricing/prices";
import { advanceOrder } from "../../lib/settlement/progress/advance";
import { settlementQuotes } from "../../schema";
import type { Harness } from "../harness/app";
import { errorOf } from "../harness/bodies";
import { burnWith, placeOrder, sendPlan, sourceOf, submitBurn } from "../harness/burns";
import { quietContext } from "../harness/context";
import { partnerRequest, readOrder, settlementSuite } from "../harness/settlement";
import { smartWallet } from "../harness/smart-wallets";
import { adminRequest, type Tenant } from "../harness/tenants";
import { mintOfDepositor } from "../harness/unclaimed";

/**
 * What an attack on the source chains found (a review of issue 36's change), each failing before
 * its fix: a contract wallet's deposit that could never be claimed, a wrong-chain burn held for an
 * order that can never take it, in-flight orders frozen by a source chain's RPC being removed, and
 * client values that must never be a 500.
 */
describe("source chains under attack", () => {
  let h: Harness;
  let tenant: Tenant;
  beforeAll(async () => {
    ({ h, tenant } = await settlementSuite());
  }, 60_000);
  afterAll(() => h.close());

  const quote = (extra: Record<string, unknown>) =>
    partnerRequest(h, tenant, "/api/integrations/settlements/quotes", {
      method: "POST",
      body: {
        sendAmountUsdc: "20",
        sourceAddress: privateKeyToAccount(generatePrivateKey()).address,
        destinationAddress: privateKeyToAccount(generatePrivateKey()).address,
        ...extra,
      },
    });

  it("odd sourceChain and defaultSourceChain values are 400s, never 500s, and change nothing", async () => {
    const odd: unknown[] = [
      1e308,
      Number.MAX_SAFE_INTEGER,
      2 ** 53 + 2,
      "99999999999999999999",
      "0x7a6a",
      "031334",
      "３１３３４",
      "sandbox source b\u0000",
      "\u202esandbox",
      "a".repeat(65),
      [31334],
      { id: 31334 },
      "__proto__",
      "constructor",
    ];
    for (const value of odd) {
      expect((await quote({ sourceChain: value })).status, JSON.stringify(value)).toBe(400);
      const patched = await adminRequest(h, `/admin/organizations/${tenant.organizationId}`, {
        method: "PATCH",
        body: { defaultSourceChain: value },
      });
      expect(patched.status, JSON.stringify(value)).toBe(400);
    }
    expect((await quote({})).status).toBe(201);
  });

  it("refuses a deposit quote from a contract wallet (it could never prove its transfer), and lets it burn from a CCTP chain", async () => {
    const intermediate = sourceOf(h, "intermediate");
    const owner = privateKeyToAccount(generatePrivateKey());
    const wallet = await smartWallet(h, owner, { role: "intermediate" });
    const refusal = await errorOf(
      await quote({ sourceAddress: wallet.address, sourceChain: intermediate.chainId }),
      400,
    );
    expect(refusal).toMatchObject({
      code: "INVALID_SOURCE_ADDRESS",
      problems: [expect.objectContaining({ field: "body.sourceAddress" })],
    });
    expect(refusal.problems?.[0]?.problem).toContain("burn from a CCTP source chain instead");
    // The same address burns from a source chain: CCTP proves a burn by its event, whoever sends it.
    expect(
      (await quote({ sourceAddress: wallet.address, sourceChain: sourceOf(h, "sourceB").chainId })).status,
    ).toBe(201);
  });

  it("a burn from another chain than its order's is not held for the order: the operator can return it", async () => {
    for (const key of ["intermediate", "sourceB"] as const) {
      // A deposit order, or an order on chain B, whose user burned on the default chain with its commitment.
      const placed = await placeOrder(h, tenant, undefined, "20", key);
      const funded = await partnerRequest(h, tenant, "/api/integrations/sandbox/faucet", {
        method: "POST",
        body: { address: placed.user.address, chainId: sourceOf(h).chainId, token: "USDC", amount: "100" },
      });
      expect(funded.status).toBe(200);
      const txHash = await burnWith(
        h,
        placed,
        { maxFee: key === "intermediate" ? 0n : placed.maxFee },
        sourceOf(h),
      );
      // The order can never take it: it verifies burns on its own chain only.
      expect((await errorOf(await submitBurn(h, tenant, placed.orderId, txHash), 400)).code).toBe(
        "INVALID_BURN",
      );
      const mint = await mintOfDepositor(h, { txHash, depositor: placed.user.address });
      expect(mint).toMatchObject({ claimableBy: null, returnable: true });
      const back = await adminRequest(h, `/admin/settlements/unclaimed/${mint.id}/return`, {
        method: "POST",
        body: { reason: "burned on the wrong chain" },
      });
      expect(back.status).toBe(202);
    }
  });

  it("an order from a source chain whose RPC URL was removed goes on once its mint is in: the later legs never read that chain", async () => {
    const placed = await placeOrder(h, tenant, undefined, "20", "sourceB");
    expect((await submitBurn(h, tenant, placed.orderId, await sendPlan(h, placed))).status).toBe(200);
    // Moved by hand, so it stops once attested (the last leg that reads chain B), before delivery.
    h.jobs.loseAll();
    const ctx = quietContext(h);
    const status = async () => (await readOrder(h, tenant, placed.orderId)).status;
    for (let poll = 0; poll < 40 && (await status()) === "BURNED"; poll++) {
      await advanceOrder(ctx, placed.orderId);
      h.clock.advance(5_000);
    }
    expect(["ATTESTED", "MINTED", "ROUTING"]).toContain(await status());
    const sourceB = sourceOf(h, "sourceB");
    const network = ctx.config.SANDBOX_NETWORK;
    if (!network) throw new Error("no network");
    // The deployment without chain B's endpoint: B is known to its orders, offered to no quote.
    const withoutB = chainRegistry({
      ...ctx.config,
      SOURCE_RPC_URLS: {},
      SANDBOX_NETWORK: {
        chains: network.chains.map(({ rpcUrl, ...chain }) =>
          chain.chainId === sourceB.chainId ? chain : { ...chain, ...(rpcUrl ? { rpcUrl } : {}) },
        ),
      },
    });
    expect(withoutB.sources.map((chain) => chain.chainId)).toEqual([sourceOf(h).chainId]);
    expect(withoutB.known(sourceB.chainId)?.cctpDomain).toBe(1);
    for (
      let poll = 0;
      poll < 40 && (await readOrder(h, tenant, placed.orderId)).status !== "DELIVERED";
      poll++
    ) {
      await advanceOrder({ ...ctx, chains: withoutB }, placed.orderId);
      h.clock.advance(5_000);
    }
    expect((await readOrder(h, tenant, placed.orderId)).status).toBe("DELIVERED");
  });
});

describe("a deposit and its chain's safe head", () => {
  let h: Harness;
  let tenant: Tenant;
  beforeAll(async () => {
    ({ h, tenant } = await settlementSuite());
  }, 60_000);
  afterAll(() => h.close());

  it("counts a deposit only once the chain's safe head has it: a reorg there could take it back", async () => {
    const placed = await placeOrder(h, tenant, undefined, "20", "intermediate");
    const hash = await sendPlan(h, placed);
    const ctx = quietContext(h);
    const [quote] = await h.database.db
      .select()
      .from(settlementQuotes)
      .where(eq(settlementQuotes.id, placed.quoteId));
    if (!quote) throw new Error("no quote");
    const intermediate = ctx.chains.byRole("intermediate");
    if (!intermediate) throw new Error("no intermediate chain");
    const mined = await intermediate.client.getTransactionReceipt({ hash });
    // A node whose safe head is behind the deposit's block, as an L2's is until its batch is on L1.
    let safeLag = 1n;
    const node = http(intermediate.rpcUrl)({});
    const lagging = createPublicClient({
      transport: custom({
        request: async ({ method, params }) => {
          const [tag, ...rest] = (params ?? []) as unknown[];
          if (method === "eth_getBlockByNumber" && tag === "safe") {
            return node.request({ method, params: [toHex(mined.blockNumber - safeLag), ...rest] as never });
          }
          return node.request({ method, params } as never);
        },
      }),
    });
    const registry = {
      ...ctx.chains,
      byRole: (role: "source" | "intermediate" | "destination") =>
        role === "intermediate" ? { ...intermediate, client: lagging } : ctx.chains.byRole(role),
    };
    const verify = () =>
      verifyDeposit({
        orderId: placed.orderId,
        chains: settlementChains(registry, "CREATED", intermediate.chainId),
        quote,
        settlementAccount: localSettlementVars().SETTLEMENT_ACCOUNT_ADDRESS as `0x${string}`,
        requiredConfirmations: 1,
        txHash: hash,
      });
    await expect(verify()).rejects.toMatchObject({ code: "BURN_PENDING_CONFIRMATIONS" });
    safeLag = 0n;
    await expect(verify()).resolves.toMatchObject({ amount: placed.totalDebit });
  });
});
