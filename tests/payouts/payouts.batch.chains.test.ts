import { encodeFunctionData, erc20Abi, maxUint256 } from "viem";
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fundFreshWallet } from "../../dev/chains";
import { route as getTransaction } from "../../functions/ledger/get-transaction";
import { route as confirmPayout } from "../../functions/payouts/confirm-payout";
import { payoutDepositorAbi } from "../../lib/kernel/chain/abis";
import { createHarness, type Harness } from "../harness/app";
import { bodyOf, errorOf } from "../harness/bodies";
import { rememberWallet, sendCode, verifyCode } from "../harness/identity";
import {
  confirmRequest,
  createdPayout,
  fund,
  payoutChain,
  payoutRow,
  readPayout,
  units,
} from "../harness/payouts";
import { partnerRequest } from "../harness/settlement";
import { smartWallet } from "../harness/smart-wallets";
import { adminRequest, createTenant } from "../harness/tenants";

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ chains: true, payouts: true });
}, 60_000);
afterAll(() => h.close());

describe("a smart wallet that batches deposits (issue 20, finding 11)", () => {
  it("confirms each payout from its own PayoutDeposited in one shared transaction, and no other payout with it", async () => {
    const tenant = await createTenant(h);
    const owner = (await fundFreshWallet(payoutChain(h))) as PrivateKeyAccount;
    const wallet = await smartWallet(h, owner);
    rememberWallet({ address: wallet.address, signMessage: ({ message }) => wallet.signMessage(message) });
    expect((await sendCode(h, tenant, "batcher@example.com", wallet.address)).status).toBe(200);
    const verified = await verifyCode(h, tenant, "batcher@example.com", "123456", wallet.address);
    expect(verified.status, await verified.clone().text()).toBe(200);
    await fund(h, tenant, wallet.address, { usdc: "100" });

    const first = await createdPayout(h, tenant, { address: wallet.address });
    const second = await createdPayout(h, tenant, { address: wallet.address });
    const hash = await wallet.batch(
      [...first.deposit.steps, ...second.deposit.steps].map((step) => ({ target: step.to, data: step.data })),
    );
    for (const creation of [first, second]) {
      const confirmed = await confirmRequest(h, tenant, creation.payout.payoutId, hash);
      expect((await bodyOf(confirmed, confirmPayout, 200)).status).toBe("deposit_confirmed");
      expect((await payoutRow(h, creation.payout.payoutId))?.depositTxHash).toBe(hash.toLowerCase());
    }
    // Looked up by its hash, the transaction names both payouts, each with its deposit leg.
    const lookup = await partnerRequest(h, tenant, `/api/integrations/transactions/${hash}`);
    const { records } = await bodyOf(lookup, getTransaction, 200);
    expect(records.map((record) => [record.type, record.id, record.legs.map((leg) => leg.leg)])).toEqual(
      [first, second]
        .map((creation) => ["payout", creation.payout.payoutId, ["deposit"]])
        .sort((a, b) => String(a[1]).localeCompare(String(b[1]))),
    );

    // Again on each: the payout as it is now.
    const again = await confirmRequest(h, tenant, second.payout.payoutId, hash);
    expect(await again.json()).toEqual(await readPayout(h, tenant, second.payout.payoutId));

    // The provider takes each deposit, one Transfer of the shared transaction each, and pays both out.
    await h.jobs.drain();
    for (const creation of [first, second]) {
      expect((await payoutRow(h, creation.payout.payoutId))?.status).toBe("processing");
    }
    h.clock.advance(2_000);
    await h.breb?.settle();
    for (const creation of [first, second]) {
      expect((await payoutRow(h, creation.payout.payoutId))?.status).toBe("completed");
    }

    // A third payout whose deposit the transaction does not hold: the hash is the other payouts'.
    const third = await createdPayout(h, tenant, { address: wallet.address });
    const used = await errorOf(await confirmRequest(h, tenant, third.payout.payoutId, hash));
    expect([used.status, used.code]).toEqual([409, "TX_ALREADY_USED"]);
    expect((await payoutRow(h, third.payout.payoutId))?.status).toBe("awaiting_deposit");
  });

  it("takes a partner fee only from the deposit's own call, never from another call's PartnerFeePaid in the batch", async () => {
    const tenant = await createTenant(h, "Batch partner fee");
    const partner = privateKeyToAccount(generatePrivateKey()).address;
    const set = await adminRequest(h, `/admin/organizations/${tenant.organizationId}`, {
      method: "PATCH",
      body: { partnerFeeBps: 100, partnerFeeAddress: partner },
    });
    expect(set.status).toBe(200);
    const owner = (await fundFreshWallet(payoutChain(h))) as PrivateKeyAccount;
    const wallet = await smartWallet(h, owner);
    rememberWallet({ address: wallet.address, signMessage: ({ message }) => wallet.signMessage(message) });
    expect((await sendCode(h, tenant, "fee-batcher@example.com", wallet.address)).status).toBe(200);
    expect((await verifyCode(h, tenant, "fee-batcher@example.com", "123456", wallet.address)).status).toBe(
      200,
    );
    await fund(h, tenant, wallet.address, { usdc: "100" });

    const a = await createdPayout(h, tenant, { address: wallet.address });
    const b = await createdPayout(h, tenant, { address: wallet.address });
    const { deposit } = b;
    const feeOf = (creation: typeof a) =>
      units((creation.deposit as typeof deposit & { partnerFee: string }).partnerFee);
    expect(feeOf(b)).toBe(feeOf(a));
    const call = (functionName: "deposit" | "depositWithPartnerFee", args: readonly unknown[]) => ({
      target: deposit.depositor,
      data: encodeFunctionData({ abi: payoutDepositorAbi, functionName, args } as never),
    });
    const common = [deposit.payoutRef, deposit.tokenAddress] as const;
    const hash = await wallet.batch([
      {
        target: deposit.tokenAddress,
        data: encodeFunctionData({
          abi: erc20Abi,
          functionName: "approve",
          args: [deposit.depositor, maxUint256],
        }),
      },
      // B's deposit without its partner fee, then a separate call that emits a PartnerFeePaid for B.
      call("deposit", [
        ...common,
        units(deposit.providerAmount),
        units(deposit.serviceFee),
        deposit.depositAddress,
        deposit.feeWallet,
      ]),
      call("depositWithPartnerFee", [...common, 1n, 0n, wallet.address, wallet.address, feeOf(b), partner]),
    ]);
    const refused = await errorOf(await confirmRequest(h, tenant, b.payout.payoutId, hash));
    expect([refused.status, refused.code]).toEqual([400, "INVALID_DEPOSIT"]);
    expect(refused.message).toContain("fee address");
    expect((await payoutRow(h, b.payout.payoutId))?.status).toBe("awaiting_deposit");
  });
});
