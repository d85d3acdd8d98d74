import { type Account, type Hex, parseUnits, zeroHash } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  fundFreshWallet,
  type RunningSandboxChains,
  revertReason,
  type SandboxChain,
  sandboxChainOf,
  sandboxOperator,
  sandboxPublicClient,
  sandboxRelayReceiverAbi,
  sandboxRouterAbi,
  sandboxWalletClient,
  startSandboxChains,
} from "../../dev/chains";
import { ManualClock } from "../../lib/kernel/clock";
import type { RouteExecutor } from "../../lib/settlement/leg-ports";
import { sandboxRelayer } from "../../lib/vendors/sandbox/relayer";
import { sandboxRoute } from "../../lib/vendors/sandbox/route";
import { addressOf, approve, balanceOf, blockTimeOf, legChainOf, mined, totalSupplyOf } from "./leg-chains";

const USDC = (amount: string) => parseUnits(amount, 6);
const USDM = (amount: string) => parseUnits(amount, 18);
const DELAY_MS = 5_000;

let running: RunningSandboxChains;
let intermediate: SandboxChain;
let destination: SandboxChain;

beforeAll(async () => {
  running = await startSandboxChains();
  intermediate = sandboxChainOf(running.network, "intermediate");
  destination = sandboxChainOf(running.network, "destination");
});
afterAll(() => running?.close());

interface Routed {
  hash: Hex;
  at: Date;
  recipient: Hex;
  account: Account;
}

/** A settlement account holding USDC on the intermediate chain calls the sandbox router. */
async function route(
  amountIn: bigint,
  change: Partial<{ tokenOut: Hex; minAmountOut: bigint; destinationChainId: bigint; memo: Hex }> = {},
): Promise<Routed> {
  const usdc = addressOf(intermediate, "usdc");
  const router = addressOf(intermediate, "router");
  const account = await fundFreshWallet(intermediate, [{ token: usdc, amount: amountIn }]);
  await approve(intermediate, account, usdc, router, amountIn);
  const recipient = privateKeyToAccount(generatePrivateKey()).address;
  const receipt = await mined(
    intermediate,
    sandboxWalletClient(intermediate, account).writeContract({
      address: router,
      abi: sandboxRouterAbi,
      functionName: "route",
      args: [
        usdc,
        amountIn,
        change.destinationChainId ?? BigInt(destination.chainId),
        change.tokenOut ?? addressOf(destination, "usdm"),
        recipient,
        change.minAmountOut ?? 0n,
        change.memo ?? zeroHash,
      ],
    }),
  );
  return {
    hash: receipt.transactionHash,
    at: await blockTimeOf(intermediate, receipt.blockNumber),
    recipient,
    account,
  };
}

function relayerAt(clock: ManualClock): RouteExecutor {
  return sandboxRelayer({
    intermediate: legChainOf(intermediate),
    destination: legChainOf(destination),
    operator: sandboxOperator,
    relayDelayMs: DELAY_MS,
    clock,
  });
}

const statusOf = (relayer: RouteExecutor, txHash: Hex) =>
  relayer.status({ txHash, fromChainId: intermediate.chainId, toChainId: destination.chainId });
const usdmOf = (owner: Hex) => balanceOf(destination, addressOf(destination, "usdm"), owner);

describe("sandbox relayer", () => {
  it("is pending until the delay has passed, then pays exactly the quoted USDm once", async () => {
    const amountIn = USDC("100");
    const routed = await route(amountIn);
    const clock = new ManualClock(routed.at);
    const relayer = relayerAt(clock);
    const usdm = addressOf(destination, "usdm");
    const supplyBefore = await totalSupplyOf(destination, usdm);

    expect(await statusOf(relayer, routed.hash)).toEqual({
      status: "pending",
      substatus: "WAIT_DESTINATION_TRANSACTION",
    });
    clock.advance(DELAY_MS - 1);
    expect(await statusOf(relayer, routed.hash)).toMatchObject({ status: "pending" });
    expect(await usdmOf(routed.recipient)).toBe(0n);

    clock.advance(1);
    const done = await statusOf(relayer, routed.hash);
    // 100 USDC is 100 USDm less 10 bps: what the sandbox route quotes for the same amount.
    const quoted = await sandboxRoute().quoteRoute({
      fromChainId: intermediate.chainId,
      toChainId: destination.chainId,
      fromToken: addressOf(intermediate, "usdc"),
      toToken: usdm,
      fromAmount: amountIn,
      fromAddress: routed.account.address,
      toAddress: routed.recipient,
      slippageBps: 0,
    });
    expect(quoted.toAmount).toBe(USDM("99.9"));
    expect(done).toMatchObject({
      status: "done",
      substatus: "COMPLETED",
      receivedAmount: quoted.toAmount,
      receivedToken: usdm,
    });
    expect(done.receivingTxHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await usdmOf(routed.recipient)).toBe(USDM("99.9"));

    // Asking again, even several at once, reports the same payment and pays nothing more.
    expect(await statusOf(relayer, routed.hash)).toEqual(done);
    expect(await Promise.all([1, 2, 3].map(() => statusOf(relayer, routed.hash)))).toEqual([
      done,
      done,
      done,
    ]);
    expect(await usdmOf(routed.recipient)).toBe(USDM("99.9"));
    expect(await totalSupplyOf(destination, usdm)).toBe(supplyBefore + USDM("99.9"));
  });

  it("pays out in the receiving transaction it reports, with the relay receiver's event", async () => {
    const routed = await route(USDC("3.5"));
    const clock = new ManualClock(routed.at);
    clock.advance(DELAY_MS);
    const done = await statusOf(relayerAt(clock), routed.hash);
    if (!done.receivingTxHash) throw new Error("no receiving transaction");
    const receipt = await sandboxPublicClient(destination).getTransactionReceipt({
      hash: done.receivingTxHash,
    });
    expect(receipt.status).toBe("success");
    expect(receipt.to?.toLowerCase()).toBe(addressOf(destination, "relayReceiver").toLowerCase());
    expect(done.receivedAmount).toBe(USDM("3.4965"));
  });

  it("refunds, once, a route whose minimum is above what the relayer pays, and pays nothing on the destination", async () => {
    const routed = await route(USDC("10"), { minAmountOut: USDM("9.995") });
    const clock = new ManualClock(routed.at);
    clock.advance(DELAY_MS);
    const relayer = relayerAt(clock);
    const answer = await statusOf(relayer, routed.hash);
    expect(answer).toMatchObject({
      status: "refunded",
      substatus: "REFUNDED",
      receivedAmount: USDC("10"),
      receivedToken: addressOf(intermediate, "usdc"),
    });
    expect(answer.receivingTxHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await usdmOf(routed.recipient)).toBe(0n);
    expect(await balanceOf(intermediate, addressOf(intermediate, "usdc"), routed.account.address)).toBe(
      USDC("10"),
    );
    // Asked again, it reports the same refund and refunds nothing more.
    expect(await statusOf(relayer, routed.hash)).toEqual(answer);
    expect(await balanceOf(intermediate, addressOf(intermediate, "usdc"), routed.account.address)).toBe(
      USDC("10"),
    );
  });

  it("does not carry what it does not carry: another output token, or a transaction that is no route", async () => {
    const clock = new ManualClock();
    clock.advance(10 * 365 * 24 * 3600 * 1000);
    const relayer = relayerAt(clock);

    const toCopm = await route(USDC("10"), { tokenOut: addressOf(destination, "copm") });
    expect(await statusOf(relayer, toCopm.hash)).toEqual({ status: "failed", substatus: "INVALID" });
    expect(await balanceOf(destination, addressOf(destination, "copm"), toCopm.recipient)).toBe(0n);

    const someone = await fundFreshWallet(intermediate);
    const transfer = await mined(
      intermediate,
      sandboxWalletClient(intermediate, someone).sendTransaction({ to: someone.address, value: 1n }),
    );
    expect(await statusOf(relayer, transfer.transactionHash)).toEqual({
      status: "failed",
      substatus: "INVALID",
    });
  });

  it("is pending for a transaction it has not seen, and refuses a pair of chains it does not serve", async () => {
    const relayer = relayerAt(new ManualClock());
    expect(await statusOf(relayer, `0x${"ab".repeat(32)}`)).toEqual({
      status: "pending",
      substatus: "NOT_FOUND",
    });
    await expect(
      relayer.status({ txHash: `0x${"ab".repeat(32)}`, fromChainId: 8453, toChainId: destination.chainId }),
    ).rejects.toThrow(RangeError);
  });

  it("carries a return's way back, USDm on the destination to USDC on the intermediate chain, and refunds it in USDm below its minimum", async () => {
    const usdm = addressOf(destination, "usdm");
    const usdc = addressOf(intermediate, "usdc");
    const backRouter = addressOf(destination, "router");
    async function routeBack(amountIn: bigint, minAmountOut: bigint) {
      const account = await fundFreshWallet(destination, [{ token: usdm, amount: amountIn }]);
      await approve(destination, account, usdm, backRouter, amountIn);
      const receipt = await mined(
        destination,
        sandboxWalletClient(destination, account).writeContract({
          address: backRouter,
          abi: sandboxRouterAbi,
          functionName: "route",
          args: [usdm, amountIn, BigInt(intermediate.chainId), usdc, account.address, minAmountOut, zeroHash],
        }),
      );
      return {
        hash: receipt.transactionHash,
        at: await blockTimeOf(destination, receipt.blockNumber),
        account,
      };
    }
    const back = (relayer: RouteExecutor, txHash: Hex) =>
      relayer.status({ txHash, fromChainId: destination.chainId, toChainId: intermediate.chainId });

    const paid = await routeBack(USDM("50"), USDC("49"));
    const clock = new ManualClock(paid.at);
    const relayer = relayerAt(clock);
    expect(await back(relayer, paid.hash)).toMatchObject({ status: "pending" });
    clock.advance(DELAY_MS);
    // 50 USDm is 50 USDC less 10 bps, paid on the intermediate chain by its relay receiver.
    const done = await back(relayer, paid.hash);
    expect(done).toMatchObject({ status: "done", receivedAmount: USDC("49.95"), receivedToken: usdc });
    expect(await balanceOf(intermediate, usdc, paid.account.address)).toBe(USDC("49.95"));
    expect(await back(relayer, paid.hash)).toEqual(done);

    // A way back that cannot meet its minimum gives the USDm back on the destination chain.
    const refused = await routeBack(USDM("50"), USDC("50"));
    clock.set(new Date(refused.at.getTime() + DELAY_MS));
    expect(await back(relayer, refused.hash)).toMatchObject({
      status: "refunded",
      receivedAmount: USDM("50"),
      receivedToken: usdm,
    });
    expect(await balanceOf(destination, usdm, refused.account.address)).toBe(USDM("50"));
    expect(await balanceOf(intermediate, usdc, refused.account.address)).toBe(0n);
  });
});

describe("the sandbox relay receiver", () => {
  it("pays only for its owner, once per route", async () => {
    const receiver = addressOf(destination, "relayReceiver");
    const client = sandboxPublicClient(destination);
    const recipient = privateKeyToAccount(generatePrivateKey()).address;
    const routeId = `0x${"42".repeat(32)}` as Hex;
    const stranger = await fundFreshWallet(destination);
    const simulate = (account: Account) =>
      client.simulateContract({
        account,
        address: receiver,
        abi: sandboxRelayReceiverAbi,
        functionName: "fulfil",
        args: [routeId, recipient, 5n],
      });

    expect(await revertReason(simulate(stranger))).toBe("SandboxRelayReceiver: caller is not the owner");
    await mined(
      destination,
      sandboxWalletClient(destination, sandboxOperator).writeContract({
        address: receiver,
        abi: sandboxRelayReceiverAbi,
        functionName: "fulfil",
        args: [routeId, recipient, 5n],
      }),
    );
    expect(await usdmOf(recipient)).toBe(5n);
    expect(
      await client.readContract({
        address: receiver,
        abi: sandboxRelayReceiverAbi,
        functionName: "fulfilled",
        args: [routeId],
      }),
    ).toBe(true);
    expect(await revertReason(simulate(sandboxOperator))).toBe(
      "SandboxRelayReceiver: route already fulfilled",
    );
  });
});
