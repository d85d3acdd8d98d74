import { type Account, decodeFunctionData, type Hex, padHex, parseUnits, zeroHash } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LIFI_RATE_LIMIT, type LocalAggregator, startLocalAggregator } from "../../dev/aggregator";
import {
  fundFreshWallet,
  LOCAL_AGGREGATOR_KEY,
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
import type { VendorRateLimit } from "../../dev/vendor-rate-limit";
import { ManualClock } from "../../lib/kernel/clock";
import type { BridgeExecutor } from "../../lib/settlement/legs/ports";
import { lifiQuote } from "../../lib/vendors/lifi/lifi-quote";
import { lifiStatus } from "../../lib/vendors/lifi/lifi-status";
import { addressOf, approve, balanceOf, blockTimeOf, mined, totalSupplyOf } from "../vendors/leg-chains";

const USDC = (amount: string) => parseUnits(amount, 6);
const USDM = (amount: string) => parseUnits(amount, 18);
const DELAY_MS = 5_000;

let running: RunningSandboxChains;
let source: SandboxChain;
let intermediate: SandboxChain;
let destination: SandboxChain;
const aggregators: LocalAggregator[] = [];

beforeAll(async () => {
  running = await startSandboxChains();
  source = sandboxChainOf(running.network, "source");
  intermediate = sandboxChainOf(running.network, "intermediate");
  destination = sandboxChainOf(running.network, "destination");
});
afterAll(async () => {
  for (const aggregator of aggregators) await aggregator.close();
  await running?.close();
});

/** A local aggregator on `clock`, started for the test. */
async function aggregatorAt(clock: ManualClock, rateLimit?: VendorRateLimit): Promise<LocalAggregator> {
  const aggregator = await startLocalAggregator({
    chains: { sources: [source], intermediate, destination },
    relayerKey: LOCAL_AGGREGATOR_KEY,
    marketKey: running.network.operator.privateKey,
    relayDelayMs: DELAY_MS,
    ...(rateLimit ? { rateLimit } : {}),
    now: () => clock.now(),
  });
  aggregators.push(aggregator);
  return aggregator;
}

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

/** The production status adapter (LI.FI's `GET /v1/status`) over a local aggregator on `clock`. */
async function relayerAt(clock: ManualClock): Promise<BridgeExecutor> {
  return lifiStatus({ baseUrl: (await aggregatorAt(clock)).url });
}

const statusOf = (relayer: BridgeExecutor, txHash: Hex) =>
  relayer.status({ txHash, fromChainId: intermediate.chainId, toChainId: destination.chainId });
const usdmOf = (owner: Hex) => balanceOf(destination, addressOf(destination, "usdm"), owner);

describe("the local aggregator's execution, read through LI.FI's status API", () => {
  it("is pending until the delay has passed, then pays exactly the quoted USDm once", async () => {
    const amountIn = USDC("100");
    const routed = await route(amountIn);
    const clock = new ManualClock(routed.at);
    const relayer = await relayerAt(clock);
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
    const quoted = await lifiQuote({ baseUrl: (await aggregatorAt(clock)).url }).quoteBridge({
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
    const done = await statusOf(await relayerAt(clock), routed.hash);
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
    const relayer = await relayerAt(clock);
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
    const relayer = await relayerAt(clock);

    const toCopm = await route(USDC("10"), { tokenOut: addressOf(destination, "copm") });
    expect(await statusOf(relayer, toCopm.hash)).toEqual({ status: "failed", substatus: "UNKNOWN_ERROR" });
    expect(await balanceOf(destination, addressOf(destination, "copm"), toCopm.recipient)).toBe(0n);

    const someone = await fundFreshWallet(intermediate);
    const transfer = await mined(
      intermediate,
      sandboxWalletClient(intermediate, someone).sendTransaction({ to: someone.address, value: 1n }),
    );
    expect(await statusOf(relayer, transfer.transactionHash)).toEqual({
      status: "failed",
      substatus: "UNKNOWN_ERROR",
    });
  });

  it("is NOT_FOUND (pending) for a transaction it has not seen, or on a pair of chains it does not serve", async () => {
    const relayer = await relayerAt(new ManualClock());
    expect(await statusOf(relayer, `0x${"ab".repeat(32)}`)).toEqual({
      status: "pending",
      substatus: "NOT_FOUND",
    });
    expect(
      await relayer.status({
        txHash: `0x${"ab".repeat(32)}`,
        fromChainId: 8453,
        toChainId: destination.chainId,
      }),
    ).toEqual({ status: "pending", substatus: "NOT_FOUND" });
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
    const back = (relayer: BridgeExecutor, txHash: Hex) =>
      relayer.status({ txHash, fromChainId: destination.chainId, toChainId: intermediate.chainId });

    const paid = await routeBack(USDM("50"), USDC("49"));
    const clock = new ManualClock(paid.at);
    const relayer = await relayerAt(clock);
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

describe("the local aggregator's quotes (LI.FI's GET /v1/quote)", () => {
  it("prices USDC to USDm one to one less 10 bps, allows the slippage, and builds the router call carrying the referrer", async () => {
    const url = (await aggregatorAt(new ManualClock())).url;
    const referrer = "0x00000000000000000000000000000000000c0de0";
    const quote = await lifiQuote({ baseUrl: url }).quoteBridge({
      fromChainId: intermediate.chainId,
      toChainId: destination.chainId,
      fromToken: addressOf(intermediate, "usdc"),
      toToken: addressOf(destination, "usdm"),
      fromAmount: USDC("100"),
      fromAddress: sandboxOperator.address,
      toAddress: sandboxOperator.address,
      slippageBps: 50,
      referrer,
    });
    expect(quote).toMatchObject({
      tool: "local-router",
      toAmount: USDM("99.9"),
      toAmountMin: USDM("99.4005"),
      approvalAddress: addressOf(intermediate, "router"),
    });
    const call = decodeFunctionData({ abi: sandboxRouterAbi, data: quote.transactionRequest?.data ?? "0x" });
    expect(call.args).toEqual([
      addressOf(intermediate, "usdc"),
      USDC("100"),
      BigInt(destination.chainId),
      addressOf(destination, "usdm"),
      sandboxOperator.address,
      USDM("99.4005"),
      padHex(referrer, { size: 32, dir: "right" }),
    ]);
    // The way back, USDm to USDC, rounded down to USDC's 6 decimals.
    const back = await lifiQuote({ baseUrl: url }).quoteBridge({
      fromChainId: destination.chainId,
      toChainId: intermediate.chainId,
      fromToken: addressOf(destination, "usdm"),
      toToken: addressOf(intermediate, "usdc"),
      fromAmount: USDM("1.0000009"),
      fromAddress: sandboxOperator.address,
      toAddress: sandboxOperator.address,
      slippageBps: 0,
    });
    expect(back.toAmount).toBe(999_000n);
  });

  it("has no quote (404, code 1002) for tokens or chains it does not carry, and refuses a malformed query (400)", async () => {
    const url = (await aggregatorAt(new ManualClock())).url;
    const ask = (change: Partial<{ toToken: Hex; toChainId: number }>) =>
      lifiQuote({ baseUrl: url }).quoteBridge({
        fromChainId: intermediate.chainId,
        toChainId: change.toChainId ?? destination.chainId,
        fromToken: addressOf(intermediate, "usdc"),
        toToken: change.toToken ?? addressOf(destination, "copm"),
        fromAmount: USDC("1"),
        fromAddress: sandboxOperator.address,
        toAddress: sandboxOperator.address,
        slippageBps: 50,
      });
    await expect(ask({})).rejects.toMatchObject({ kind: "no_route" });
    await expect(ask({ toToken: addressOf(destination, "usdm"), toChainId: 1 })).rejects.toMatchObject({
      kind: "no_route",
    });
    const malformed = await fetch(`${url}/v1/quote?fromChain=x`);
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ code: 1011 });
  });

  it("keeps LI.FI's rate limit: past its requests a minute, 429 (code 1005) with ratelimit-reset, read as the time to stay away", async () => {
    const clock = new ManualClock(new Date("2026-11-27T12:00:00Z"));
    const url = (await aggregatorAt(clock, { ...LIFI_RATE_LIMIT, requests: 3 })).url;
    const status = lifiStatus({ baseUrl: url, now: () => clock.now() });
    const ask = () =>
      status.status({
        txHash: `0x${"ab".repeat(32)}`,
        fromChainId: intermediate.chainId,
        toChainId: destination.chainId,
      });
    for (let request = 0; request < 3; request++) await ask();
    const limited = await ask().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(limited).toMatchObject({ kind: "unavailable", retryAfterMs: 60_000 });
    clock.advance(60_000);
    expect(await ask()).toMatchObject({ status: "pending" });
  });
});

describe("the local relay receiver", () => {
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
    // The aggregator's relayer owns it, not the sandbox operator who deployed it.
    expect(await revertReason(simulate(sandboxOperator))).toBe(
      "SandboxRelayReceiver: caller is not the owner",
    );
    const relayer = privateKeyToAccount(LOCAL_AGGREGATOR_KEY);
    await mined(
      destination,
      sandboxWalletClient(destination, relayer).writeContract({
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
    expect(await revertReason(simulate(relayer))).toBe("SandboxRelayReceiver: route already fulfilled");
  });
});
