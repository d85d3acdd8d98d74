import { eq } from "drizzle-orm";
import { erc20Abi, type Hex, parseEventLogs, parseUnits } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandboxTokenAbi } from "../../dev/chains";
import { LOCAL_BREB_FEE_WALLET } from "../../dev/local-defaults";
import { route as attentionRoute } from "../../functions/payouts/admin-attention";
import { serviceContext } from "../../lib/http/deps";
import { runSweep } from "../../lib/kernel/sweep";
import type { BrebPayoutReport } from "../../lib/payouts/breb-provider";
import { returnFee } from "../../lib/payouts/fee-return";
import { flagOverduePayouts } from "../../lib/payouts/sweep-hooks";
import { brebFeeReturns } from "../../schema";
import type { Harness } from "../harness/app";
import { bodyOf } from "../harness/bodies";
import { clientsOn } from "../harness/burns";
import {
  type approvedUser,
  confirmedPayout,
  FAILING_KEY,
  type PayoutView,
  payoutChain,
  payoutRow,
  payoutSuite,
  postCallback,
  readPayout,
  signedCallback,
  signedRefund,
  units,
  withPayoutProvider,
} from "../harness/payouts";
import { adminRequest, type Tenant } from "../harness/tenants";

/**
 * A payout is `refunded` only once the payout chain shows the provider's refund: the Transfer of the
 * payout's token to the payout's wallet in the transaction the provider names, found by its log
 * index. Then the service returns its own fee from the fee wallet. What the provider says and the
 * chain does not show leaves the payout `failed`, refund owed, and past the deadline the operator is told.
 */

let h: Harness;
let tenant: Tenant;
let user: Awaited<ReturnType<typeof approvedUser>>;
beforeAll(async () => {
  ({ h, tenant, user } = await payoutSuite("500"));
}, 60_000);
afterAll(() => h.close());

const SMALL = { destinationCop: "10000" };
const DEADLINE_MS = 3_600_000;

function report(payoutId: string, change: Partial<BrebPayoutReport> & Pick<BrebPayoutReport, "status">) {
  return {
    payoutId,
    providerPayoutId: "bpo_test",
    updatedAt: h.clock.now().toISOString(),
    ...change,
  } satisfies BrebPayoutReport;
}

async function deliver(body: BrebPayoutReport) {
  const response = await postCallback(h, signedCallback(h, body));
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** A token the operator mints on the payout chain: the mint is a Transfer from the zero address. */
async function mint(token: "usdc" | "copm", to: Hex, amount: bigint): Promise<Hex> {
  const chain = payoutChain(h);
  const operator = h.network?.operator.privateKey as Hex;
  const { reader, wallet } = clientsOn(chain, privateKeyToAccount(operator));
  const hash = await wallet.writeContract({
    address: chain.contracts[token] as Hex,
    abi: sandboxTokenAbi,
    functionName: "mint",
    args: [to, amount],
  });
  await reader.waitForTransactionReceipt({ hash });
  return hash;
}

/** The user's own USDC transfer: to `to`, or (with `gas`) one that reverts and is mined all the same. */
async function userTransfer(to: Hex, amount: bigint, gas?: bigint): Promise<Hex> {
  const chain = payoutChain(h);
  const { reader, wallet } = clientsOn(chain, user);
  const hash = await wallet.writeContract({
    address: chain.contracts.usdc as Hex,
    abi: erc20Abi,
    functionName: "transfer",
    args: [to, amount],
    ...(gas ? { gas } : {}),
  });
  await reader.waitForTransactionReceipt({ hash });
  return hash;
}

function usdcOf(holder: Hex): Promise<bigint> {
  const chain = payoutChain(h);
  const { reader } = clientsOn(chain, user);
  return reader.readContract({
    address: chain.contracts.usdc as Hex,
    abi: erc20Abi,
    functionName: "balanceOf",
    args: [holder],
  });
}

async function transfersIn(hash: Hex) {
  const { reader } = clientsOn(payoutChain(h), user);
  const receipt = await reader.getTransactionReceipt({ hash });
  return parseEventLogs({ abi: erc20Abi, eventName: "Transfer", logs: receipt.logs });
}

const legOf = (payout: PayoutView, leg: string) => payout.receipt.legs.find((entry) => entry.leg === leg);
const notesOf = (payout: PayoutView, status: string) =>
  payout.timeline.filter((entry) => entry.status === status);

async function forOperator() {
  const response = await adminRequest(h, "/admin/payouts/attention");
  return (await bodyOf(response, attentionRoute, 200)).payouts;
}

/** A confirmed payout the provider reports failed (by callback): its refund is owed. */
async function failedPayout() {
  const confirmed = await confirmedPayout(h, tenant, user, SMALL);
  const failed = await deliver(
    report(confirmed.payoutId, { status: "failed", failureReason: "bank said no" }),
  );
  expect(failed.body.applied).toBe(true);
  return { ...confirmed, owed: units(confirmed.creation.deposit.providerAmount) };
}

/** Runs `work` with the fee wallet's key unset, as a deployment without BREB_FEE_WALLET_KEY. */
async function withoutFeeWalletKey<T>(work: () => Promise<T>): Promise<T> {
  const payouts = h.deps.providers.payouts;
  const key = payouts.feeWallet;
  delete payouts.feeWallet;
  try {
    return await work();
  } finally {
    payouts.feeWallet = key;
  }
}

describe("a refund proven on chain, then the service's fee returned", () => {
  it("a 9999 key: the provider's refund is read from its receipt, the payout refunded, and the fee wallet returns the fee once", async () => {
    const { payoutId, creation } = await confirmedPayout(h, tenant, user, { ...SMALL, breBKey: FAILING_KEY });
    const owed = units(creation.deposit.providerAmount);
    const fee = units(creation.deposit.serviceFee);
    const afterDeposit = await usdcOf(user.address);
    const feeWalletBefore = await usdcOf(LOCAL_BREB_FEE_WALLET);
    await h.jobs.drain(); // submitted: processing
    h.clock.advance(2_000);
    await h.breb?.settle(); // failed
    h.clock.advance(2_000);
    await h.breb?.settle(); // the refund on chain, then the callback naming it

    const refunded = await readPayout(h, tenant, payoutId);
    expect(refunded.status).toBe("refunded");
    const refundTxHash = refunded.refundTxHash as Hex;
    // The Transfer the payout records, by its log index, is the token's to the wallet of what was owed.
    const row = await payoutRow(h, payoutId);
    expect([row?.refundAmount, row?.refundLogIndex]).toEqual([owed, expect.any(Number)]);
    const [transfer] = (await transfersIn(refundTxHash)).filter(
      (log) => log.logIndex === row?.refundLogIndex,
    );
    expect([transfer?.address.toLowerCase(), transfer?.args.to, transfer?.args.value]).toEqual([
      creation.deposit.tokenAddress.toLowerCase(),
      user.address,
      owed,
    ]);
    expect(refunded.timeline.at(-1)).toMatchObject({
      status: "refunded",
      txHash: refundTxHash,
      detail: `Transfer log ${row?.refundLogIndex} paid the wallet ${owed} (atomic units), from ${creation.deposit.depositAddress}`,
    });
    expect(legOf(refunded, "refund")).toMatchObject({
      txHash: refundTxHash,
      amountIn: owed.toString(),
      amountOut: owed.toString(),
      fees: [],
    });
    expect(legOf(refunded, "fee_return")).toBeUndefined();

    // The payout's job returns the fee; a job that read the payout before (a retry) sends nothing more.
    const stale = (await payoutRow(h, payoutId)) ?? expect.fail("no payout");
    h.clock.advance(10_000);
    await h.jobs.drain();
    expect(await returnFee(context(), stale)).toBe("returned");
    h.clock.advance(10_000);
    await h.jobs.drain();
    const returns = await h.database.db
      .select()
      .from(brebFeeReturns)
      .where(eq(brebFeeReturns.payoutId, payoutId));
    expect(returns.map((entry) => [entry.status, entry.amount])).toEqual([["success", fee]]);
    const done = await readPayout(h, tenant, payoutId);
    const feeReturnTxHash = returns[0]?.hash as Hex;
    expect(done.timeline.slice(-2).map((entry) => [entry.status, entry.txHash])).toEqual([
      ["fee_return_sent", feeReturnTxHash],
      ["fee_returned", feeReturnTxHash],
    ]);
    expect(legOf(done, "fee_return")).toMatchObject({
      txHash: feeReturnTxHash,
      tokenIn: "USDC",
      amountIn: fee.toString(),
      amountOut: fee.toString(),
      movements: [
        expect.objectContaining({ amount: fee.toString(), counterparty: "service" }),
        expect.objectContaining({ amount: (-fee).toString(), counterparty: "user" }),
      ],
    });
    expect(done.receipt.residue).toEqual([]);
    const returned = (await transfersIn(feeReturnTxHash)).map((log) => [
      log.args.from,
      log.args.to,
      log.args.value,
    ]);
    expect(returned).toEqual([[LOCAL_BREB_FEE_WALLET, user.address, fee]]);
    // The user has back all they paid; the fee wallet kept nothing of this payout.
    expect((await usdcOf(user.address)) - afterDeposit).toBe(owed + fee);
    expect(await usdcOf(LOCAL_BREB_FEE_WALLET)).toBe(feeWalletBefore - fee);
    expect((await forOperator()).filter((entry) => entry.payoutId === payoutId)).toEqual([]);
  });

  it("a fee return recorded but never broadcast (its job died) goes out byte for byte on the next look, never signed twice", async () => {
    const { payoutId, owed, creation } = await failedPayout();
    const fee = units(creation.deposit.serviceFee);
    const refund = await signedRefund(h, user.address, owed);
    await refund.broadcast();
    const feeWalletBefore = await usdcOf(LOCAL_BREB_FEE_WALLET);
    const client = h.deps.chains.byRole("destination")?.client ?? expect.fail("no payout chain");
    const send = client.sendRawTransaction;
    client.sendRawTransaction = () => Promise.reject(new Error("the job died before broadcasting"));
    try {
      h.clock.advance(1_000);
      await deliver(report(payoutId, { status: "refunded", refundTxHash: refund.hash }));
      h.clock.advance(10_000);
      await h.jobs.drain();
    } finally {
      client.sendRawTransaction = send;
    }
    const [recorded] = await h.database.db
      .select()
      .from(brebFeeReturns)
      .where(eq(brebFeeReturns.payoutId, payoutId));
    expect(recorded?.status).toBe("signed");
    expect(await usdcOf(LOCAL_BREB_FEE_WALLET)).toBe(feeWalletBefore);
    h.clock.advance(10_000);
    await h.jobs.drain();
    const returns = await h.database.db
      .select()
      .from(brebFeeReturns)
      .where(eq(brebFeeReturns.payoutId, payoutId));
    expect(returns.map((entry) => [entry.hash, entry.status])).toEqual([[recorded?.hash, "success"]]);
    expect((await readPayout(h, tenant, payoutId)).timeline.at(-1)).toMatchObject({
      status: "fee_returned",
      txHash: recorded?.hash,
    });
    expect(await usdcOf(LOCAL_BREB_FEE_WALLET)).toBe(feeWalletBefore - fee);
  });

  it("a refund not yet mined waits, asked again at every poll, and is proven once the chain has it", async () => {
    const { payoutId, owed } = await failedPayout();
    const refund = await signedRefund(h, user.address, owed);
    const named = (id: string) =>
      Promise.resolve(report(id, { status: "refunded", refundTxHash: refund.hash }));
    await withPayoutProvider(
      h,
      (real) => ({ ...real, status: named }),
      async () => {
        h.clock.advance(10_000);
        await h.jobs.drain();
        h.clock.advance(10_000);
        await h.jobs.drain(); // asked twice: noted once
        const waiting = await readPayout(h, tenant, payoutId);
        expect(waiting).toMatchObject({ status: "failed", refundTxHash: null });
        expect(notesOf(waiting, "refund_unproven")).toEqual([
          expect.objectContaining({
            txHash: refund.hash,
            detail: expect.stringMatching(/the chain does not know it yet; asked again$/),
          }),
        ]);
        await refund.broadcast();
        h.clock.advance(10_000);
        await h.jobs.drain();
      },
    );
    const refunded = await readPayout(h, tenant, payoutId);
    expect(refunded).toMatchObject({ status: "refunded", refundTxHash: refund.hash });
    expect(legOf(refunded, "refund")).toMatchObject({ txHash: refund.hash, amountOut: owed.toString() });
  });
});

const ELSEWHERE = "0x000000000000000000000000000000000000bEEF" as const;

/** Transactions on the payout chain that are not this payout's refund, each for its own reason. */
const UNRELATED: Array<[string, (payout: { depositHash: Hex; before: Hex }) => Promise<Hex>, RegExp]> = [
  [
    "the payout's own deposit (no Transfer to the wallet)",
    async ({ depositHash }) => depositHash,
    /not mined after the payout's deposit/,
  ],
  ["a USDC transfer to another wallet", () => userTransfer(ELSEWHERE, 1_000_000n), /holds no Transfer/],
  [
    "another token (COPm) sent to the wallet",
    () => mint("copm", user.address, parseUnits("3", 18)),
    /another token contract/,
  ],
  [
    "a reverted transfer",
    () => userTransfer(user.address, parseUnits("1000000", 6), 100_000n),
    /it reverted/,
  ],
  [
    "USDC sent to the wallet before the deposit",
    async ({ before }) => before,
    /not mined after the payout's deposit/,
  ],
  [
    "USDC minted to the wallet after the deposit, by someone other than the provider",
    () => mint("usdc", user.address, 1n),
    /not from the provider's deposit address/,
  ],
];

describe("a refund the provider names is proven on chain before the payout is refunded", () => {
  it.each(UNRELATED)(
    "a report naming %s leaves the payout failed, refund owed",
    async (_, unrelated, why) => {
      const before = await mint("usdc", user.address, 1_000_000n);
      const { payoutId, depositHash } = await confirmedPayout(h, tenant, user, SMALL);
      expect(
        (await deliver(report(payoutId, { status: "failed", failureReason: "bank said no" }))).status,
      ).toBe(200);
      const hash = await unrelated({ depositHash, before });
      h.clock.advance(1_000);
      const answer = await deliver(report(payoutId, { status: "refunded", refundTxHash: hash }));
      const read = await readPayout(h, tenant, payoutId);
      expect(read).toMatchObject({ status: "failed", refundTxHash: null, failureReason: "bank said no" });
      expect(answer).toEqual({ status: 200, body: { received: true, applied: false } });
      expect(read.timeline.at(-1)).toMatchObject({
        status: "refund_unproven",
        txHash: hash.toLowerCase(),
        detail: expect.stringMatching(why),
      });
      expect(read.receipt.legs.map((leg) => leg.leg)).toEqual(["deposit"]);
      expect(h.logLines).toContainEqual(
        expect.objectContaining({ level: "warn", payoutId, refundTxHash: hash.toLowerCase() }),
      );
    },
  );

  it("straight from processing, a report naming no refund of this payout records the failure only", async () => {
    const { payoutId, depositHash } = await confirmedPayout(h, tenant, user, SMALL);
    const answer = await deliver(report(payoutId, { status: "refunded", refundTxHash: depositHash }));
    expect(answer.body.applied).toBe(true); // it failed, on the provider's word
    const read = await readPayout(h, tenant, payoutId);
    expect(read.timeline.map((entry) => entry.status)).toEqual([
      "awaiting_deposit",
      "deposit_confirmed",
      "processing",
      "failed",
      "refund_unproven",
    ]);
    expect(read.refundTxHash).toBeNull();
  });

  it("one Transfer refunds one payout: a second payout named with the same refund stays failed", async () => {
    const first = await failedPayout();
    const second = await failedPayout();
    const refund = await signedRefund(h, user.address, first.owed);
    await refund.broadcast();
    h.clock.advance(1_000);
    expect(
      (await deliver(report(first.payoutId, { status: "refunded", refundTxHash: refund.hash }))).body.applied,
    ).toBe(true);
    expect(
      (await deliver(report(second.payoutId, { status: "refunded", refundTxHash: refund.hash }))).body
        .applied,
    ).toBe(false);
    expect((await readPayout(h, tenant, first.payoutId)).status).toBe("refunded");
    const second_ = await readPayout(h, tenant, second.payoutId);
    expect(second_.status).toBe("failed");
    expect(second_.timeline.at(-1)?.detail).toMatch(/another payout's refund/);
  });

  it("a malformed refund hash in a signed callback is 400, never a 500, and changes nothing", async () => {
    const { payoutId } = await failedPayout();
    const response = await postCallback(
      h,
      signedCallback(h, report(payoutId, { status: "refunded", refundTxHash: "0x1234" })),
    );
    expect(response.status).toBe(400);
    expect((await readPayout(h, tenant, payoutId)).status).toBe("failed");
  });
});

describe("what the operator is told", () => {
  it("a refund short of what was owed is recorded with both amounts and flagged", async () => {
    const { payoutId, owed } = await failedPayout();
    const short = owed - 250_000n;
    const refund = await signedRefund(h, user.address, short);
    await refund.broadcast();
    h.clock.advance(1_000);
    expect(
      (await deliver(report(payoutId, { status: "refunded", refundTxHash: refund.hash }))).body.applied,
    ).toBe(true);
    const read = await readPayout(h, tenant, payoutId);
    expect(read.status).toBe("refunded");
    expect(legOf(read, "refund")).toMatchObject({
      amountIn: owed.toString(),
      amountOut: short.toString(),
      fees: [{ type: "provider", token: "USDC", amount: "250000" }],
    });
    expect(notesOf(read, "refund_short")).toEqual([
      expect.objectContaining({
        txHash: refund.hash,
        detail: `the refund paid ${short} of the ${owed} owed (atomic units): 250000 short; for the operator`,
      }),
    ]);
    expect(h.logLines).toContainEqual(
      expect.objectContaining({
        level: "error",
        payoutId,
        owed: owed.toString(),
        refunded: short.toString(),
      }),
    );
    expect((await forOperator()).filter((entry) => entry.payoutId === payoutId)).toEqual([
      expect.objectContaining({ reason: "refund_short", owed: owed.toString(), refunded: short.toString() }),
    ]);
  });

  it("a failed payout with no refund proven by the deadline is flagged once, and listed until it is refunded", async () => {
    const { payoutId } = await failedPayout();
    await deliver(report(payoutId, { status: "refunded", refundTxHash: `0x${"cd".repeat(32)}` }));
    h.clock.advance(DEADLINE_MS - 1_000);
    await runSweep(context(), [flagOverduePayouts]);
    expect(notesOf(await readPayout(h, tenant, payoutId), "refund_overdue")).toEqual([]);
    h.clock.advance(2_000);
    await runSweep(context(), [flagOverduePayouts]);
    await runSweep(context(), [flagOverduePayouts]);
    const overdue = await readPayout(h, tenant, payoutId);
    expect(overdue.status).toBe("failed");
    expect(notesOf(overdue, "refund_overdue")).toHaveLength(1);
    expect(h.logLines).toContainEqual(
      expect.objectContaining({
        level: "error",
        msg: "payout refund overdue: the operator follows it up",
        payoutId,
      }),
    );
    expect((await forOperator()).filter((entry) => entry.payoutId === payoutId)).toEqual([
      expect.objectContaining({ reason: "refund_overdue", status: "failed", refunded: null }),
    ]);
  });

  it("without the fee wallet's key the fee is owed, flagged past the deadline, and returned once the key is back", async () => {
    const { payoutId, owed, creation } = await failedPayout();
    const fee = units(creation.deposit.serviceFee);
    const refund = await signedRefund(h, user.address, owed);
    await refund.broadcast();
    await withoutFeeWalletKey(async () => {
      h.clock.advance(1_000);
      await deliver(report(payoutId, { status: "refunded", refundTxHash: refund.hash }));
      h.clock.advance(10_000);
      await h.jobs.drain();
      expect(h.jobs.pending().filter((job) => job.rawBody.includes(payoutId))).toEqual([]);
      h.clock.advance(DEADLINE_MS);
      await runSweep(context(), [flagOverduePayouts]);
      const owing = await readPayout(h, tenant, payoutId);
      expect(owing.status).toBe("refunded");
      expect(legOf(owing, "fee_return")).toBeUndefined();
      expect(notesOf(owing, "fee_return_overdue")).toEqual([
        expect.objectContaining({ detail: expect.stringMatching(/no fee wallet key is configured/) }),
      ]);
      expect((await forOperator()).filter((entry) => entry.payoutId === payoutId)).toEqual([
        expect.objectContaining({
          reason: "fee_return_overdue",
          serviceFee: fee.toString(),
          feeReturnTxHash: null,
        }),
      ]);
    });
    const payout = (await payoutRow(h, payoutId)) ?? expect.fail("no payout");
    expect(await returnFee(context(), payout)).toBe("returned");
    const returned = await readPayout(h, tenant, payoutId);
    expect(legOf(returned, "fee_return")).toMatchObject({ amountOut: fee.toString() });
    expect((await forOperator()).filter((entry) => entry.payoutId === payoutId)).toEqual([]);
  });
});

describe("a fee the operator returned by hand while no key was set", () => {
  it("is found and recorded once the key is set, never paid again", async () => {
    const { payoutId, owed, creation } = await failedPayout();
    const fee = units(creation.deposit.serviceFee);
    const refund = await signedRefund(h, user.address, owed);
    await refund.broadcast();
    const feeWalletAccount = h.deps.providers.payouts.feeWallet ?? expect.fail("no fee wallet");
    let manual: Hex | undefined;
    await withoutFeeWalletKey(async () => {
      h.clock.advance(1_000);
      await deliver(report(payoutId, { status: "refunded", refundTxHash: refund.hash }));
      // The operator returns it by hand from the fee wallet (docs/payouts.md, Refunds).
      const chain = payoutChain(h);
      const { reader, wallet } = clientsOn(chain, feeWalletAccount as never);
      manual = await wallet.writeContract({
        address: chain.contracts.usdc as Hex,
        abi: erc20Abi,
        functionName: "transfer",
        args: [user.address, fee],
      });
      await reader.waitForTransactionReceipt({ hash: manual });
    });
    // The fee wallet holds other payouts' fees, as in production; then the key is set.
    await mint("usdc", LOCAL_BREB_FEE_WALLET, fee * 10n);
    const userBefore = await usdcOf(user.address);
    const payout = (await payoutRow(h, payoutId)) ?? expect.fail("no payout");
    expect(await returnFee(context(), payout)).toBe("returned");
    expect(await returnFee(context(), (await payoutRow(h, payoutId)) ?? payout)).toBe("returned");
    expect((await usdcOf(user.address)) - userBefore).toBe(0n);
    expect((await payoutRow(h, payoutId))?.feeReturnTxHash).toBe(manual?.toLowerCase());
    expect(
      await h.database.db.select().from(brebFeeReturns).where(eq(brebFeeReturns.payoutId, payoutId)),
    ).toEqual([]);
  });
});

function context() {
  return serviceContext(h.deps, h.database.db, h.deps.logger);
}
