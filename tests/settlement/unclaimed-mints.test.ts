import { eq } from "drizzle-orm";
import { parseUnits } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { route as returnRoute } from "../../functions/settlement/admin-return-unclaimed";
import { orderHookData } from "../../lib/kernel/chain/forwarding";
import { settlementTransactions } from "../../schema";
import type { Harness } from "../harness/app";
import { bodyOf, errorOf } from "../harness/bodies";
import { burnWith, placeOrder, sourceOf, sourceUsdcOf, submitBurn } from "../harness/burns";
import { readOrder, settlementSuite } from "../harness/settlement";
import { adminRequest, type Tenant } from "../harness/tenants";
import { mintOfDepositor, returnedMint, unclaimedMints } from "../harness/unclaimed";

/**
 * A burn that minted to the settlement account but belongs to no order is found on the chain, listed
 * for the operator with Circle's fee for the way back, and returned to whoever burned it on the
 * chain it came from; one an order may still claim is not.
 */
describe("mints no order claims", () => {
  let h: Harness;
  let tenant: Tenant;
  beforeAll(async () => {
    ({ h, tenant } = await settlementSuite());
  }, 60_000);
  afterAll(() => h.close());

  const returnMint = (mintId: string, body: unknown = { reason: "the depositor's ticket 42" }) =>
    adminRequest(h, `/admin/settlements/unclaimed/${mintId}/return`, { method: "POST", body });

  it("returns a burn whose hook data names no order to its depositor, once, with Circle's fee shown", async () => {
    const placed = await placeOrder(h, tenant);
    const amount = parseUnits("3", 6);
    const txHash = await burnWith(h, placed, { amount, maxFee: 0n, hookData: orderHookData("ord_nobody") });
    const mint = await mintOfDepositor(h, { txHash, depositor: placed.user.address });
    expect(mint).toMatchObject({
      amountUsdc: "3",
      feeCollectedUsdc: "0",
      status: "found",
      returnable: true,
      claimableBy: null,
      sourceChainId: sourceOf(h).chainId,
      return: null,
    });
    const fee = parseUnits(mint.returnFeeUsdc ?? "3", 6);
    expect(fee).toBeGreaterThan(0n);
    expect(fee).toBeLessThan(amount);

    // Bad requests change nothing.
    expect((await errorOf(await returnMint(mint.id, {}), 400)).code).toBe("INVALID_REQUEST");
    expect((await errorOf(await returnMint("mnt_nothing"), 404)).code).toBe("UNCLAIMED_MINT_NOT_FOUND");
    expect((await unclaimedMints(h)).find((m) => m.id === mint.id)?.status).toBe("found");

    const before = await sourceUsdcOf(h, placed.user.address);
    const asked = await bodyOf(await returnMint(mint.id), returnRoute, 202);
    expect(asked).toMatchObject({ id: mint.id, status: "return_requested", returnable: false });
    expect(asked.return?.reason).toBe("the depositor's ticket 42");

    const returned = await returnedMint(h, mint.id);
    const received = parseUnits(returned.return?.receivedUsdc ?? "0", 6);
    const kept = parseUnits(returned.return?.feeCollectedUsdc ?? "-1", 6);
    expect(received + kept).toBe(amount);
    expect(kept).toBeLessThanOrEqual(fee);
    expect(await sourceUsdcOf(h, placed.user.address)).toBe(before + received);
    expect(returned.return?.burnTxHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(returned.return?.mintTxHash).toMatch(/^0x[0-9a-f]{64}$/);

    // Asked again: the mint as it stands, and no second burn.
    const again = await bodyOf(await returnMint(mint.id), returnRoute, 202);
    expect(again.status).toBe("returned");
    await h.jobs.drain();
    const burns = await h.database.db
      .select()
      .from(settlementTransactions)
      .where(eq(settlementTransactions.purpose, `mint-return:${mint.id}`));
    expect(burns.map((row) => row.status)).toEqual(["success"]);
    expect(await sourceUsdcOf(h, placed.user.address)).toBe(before + received);
  });

  it("refuses to return a mint an order not attested yet may claim, and drops it from the list once the order claims it", async () => {
    const placed = await placeOrder(h, tenant);
    const txHash = await burnWith(h, placed, {});
    const mint = await mintOfDepositor(h, { txHash, depositor: placed.user.address });
    expect(mint).toMatchObject({ returnable: false, claimableBy: placed.orderId, status: "found" });
    const refused = await errorOf(await returnMint(mint.id), 409);
    expect(refused.code).toBe("MINT_NOT_RETURNABLE");
    expect(refused.message).toContain(placed.orderId);

    // The partner reports the burn late: the order claims its mint, which leaves the list.
    expect((await submitBurn(h, tenant, placed.orderId, txHash)).status).toBe(200);
    for (
      let poll = 0;
      poll < 30 && (await readOrder(h, tenant, placed.orderId)).status !== "DELIVERED";
      poll++
    ) {
      await h.jobs.drain();
      h.clock.advance(5_000);
    }
    expect((await readOrder(h, tenant, placed.orderId)).status).toBe("DELIVERED");
    expect((await unclaimedMints(h)).some((m) => m.id === mint.id)).toBe(false);
    expect((await errorOf(await returnMint(mint.id), 409)).code).toBe("MINT_NOT_RETURNABLE");
  });

  it("relays the return's mint itself when Circle's forward to the source chain fails", async () => {
    const placed = await placeOrder(h, tenant);
    const amount = parseUnits("4", 6);
    const txHash = await burnWith(h, placed, { amount, maxFee: 0n, hookData: orderHookData("ord_nobody") });
    const mint = await mintOfDepositor(h, { txHash, depositor: placed.user.address });
    const source = sourceOf(h).cctpDomain ?? -1;
    h.vendors?.circle.failForwardsTo(source);
    try {
      const before = await sourceUsdcOf(h, placed.user.address);
      expect((await returnMint(mint.id)).status).toBe(202);
      const returned = await returnedMint(h, mint.id);
      const received = parseUnits(returned.return?.receivedUsdc ?? "0", 6);
      expect(received + parseUnits(returned.return?.feeCollectedUsdc ?? "-1", 6)).toBe(amount);
      expect(await sourceUsdcOf(h, placed.user.address)).toBe(before + received);
      const relays = await h.database.db
        .select()
        .from(settlementTransactions)
        .where(eq(settlementTransactions.purpose, `mint-return-relay:${mint.id}`));
      // The service's own receiveMessage minted it: the mint's transaction is its relay.
      expect(relays.map((row) => [row.status, row.hash])).toEqual([["success", returned.return?.mintTxHash]]);
    } finally {
      h.vendors?.circle.failForwardsTo(source, false);
    }
  });
});
