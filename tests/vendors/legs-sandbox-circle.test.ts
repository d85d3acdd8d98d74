import { type Account, type Hex, pad, parseEventLogs, parseUnits, zeroHash } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CCTP_FORWARD_HOOK_DATA,
  fundFreshWallet,
  type RunningSandboxChains,
  revertReason,
  type SandboxChain,
  sandboxChainOf,
  sandboxOperator,
  sandboxPublicClient,
  sandboxTokenMessengerV2Abi,
  sandboxWalletClient,
  startSandboxChains,
} from "../../dev/chains";
import { tokenMessengerV2Abi } from "../../lib/kernel/chain/abis";
import type { LegChain } from "../../lib/kernel/chain/leg-chain";
import { ManualClock } from "../../lib/kernel/clock";
import { ProviderFailure } from "../../lib/kernel/provider-failure";
import { forwardedMintObserver } from "../../lib/vendors/circle/forwarded-mint-observer";
import { sandboxCircle } from "../../lib/vendors/sandbox/circle";
import { sandboxForwardingFee } from "../../lib/vendors/sandbox/forwarding-fee";
import { freePort } from "../harness/free-port";
import { addressOf, approve, balanceOf, blockTimeOf, legChainOf, mined, totalSupplyOf } from "./leg-chains";

const USDC = (amount: string) => parseUnits(amount, 6);
const FAST_FINALITY = 1000;
const DELAY_MS = 20_000;
const INTERMEDIATE_DOMAIN = 6;

let running: RunningSandboxChains;
let source: SandboxChain;
let intermediate: SandboxChain;
let sourceLeg: LegChain;
let intermediateLeg: LegChain;

beforeAll(async () => {
  running = await startSandboxChains();
  source = sandboxChainOf(running.network, "source");
  intermediate = sandboxChainOf(running.network, "intermediate");
  sourceLeg = legChainOf(source);
  intermediateLeg = legChainOf(intermediate);
});
afterAll(() => running?.close());

interface Burn {
  hash: Hex;
  /** The burn's block time: where a test's clock starts. */
  at: Date;
  recipient: Hex;
}

/** A fresh user burns on the source chain for a fresh settlement account, as a settlement order does. */
async function burn(amount: bigint, maxFee: bigint, hookData: Hex = CCTP_FORWARD_HOOK_DATA): Promise<Burn> {
  const usdc = addressOf(source, "usdc");
  const messenger = addressOf(source, "tokenMessenger");
  const user = await fundFreshWallet(source, [{ token: usdc, amount }]);
  await approve(source, user, usdc, messenger, amount);
  const recipient = privateKeyToAccount(generatePrivateKey()).address;
  const receipt = await mined(
    source,
    sandboxWalletClient(source, user).writeContract({
      address: messenger,
      abi: tokenMessengerV2Abi,
      functionName: "depositForBurnWithHook",
      args: [
        amount,
        INTERMEDIATE_DOMAIN,
        pad(recipient, { size: 32 }),
        usdc,
        zeroHash,
        maxFee,
        FAST_FINALITY,
        hookData,
      ],
    }),
  );
  return { hash: receipt.transactionHash, at: await blockTimeOf(source, receipt.blockNumber), recipient };
}

function circleAt(clock: ManualClock, operator: Account = sandboxOperator) {
  return sandboxCircle({
    source: sourceLeg,
    intermediate: intermediateLeg,
    operator,
    attestationDelayMs: DELAY_MS,
    clock,
  });
}

function observer(matchBurnHash: boolean) {
  return forwardedMintObserver({
    client: intermediateLeg.client,
    tokenMessenger: addressOf(intermediate, "tokenMessenger"),
    usdc: addressOf(intermediate, "usdc"),
    matchBurnHash,
  });
}

const intermediateUsdc = (owner: Hex) => balanceOf(intermediate, addressOf(intermediate, "usdc"), owner);

async function failureOf(attempt: Promise<unknown>): Promise<ProviderFailure> {
  const error = await attempt.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof ProviderFailure))
    throw new Error(`expected a ProviderFailure, got ${String(error)}`);
  return error;
}

describe("the sandbox forwarding fee", () => {
  it("is the 1 bps Fast fee rounded up plus 0.2 USDC, capped at the burn's maxFee", () => {
    // 100 USDC: 0.01 + 0.2 USDC.
    expect(sandboxForwardingFee(USDC("100"), USDC("0.25"))).toBe(210_000n);
    // 1.000001 USDC: 1 bps is 100.0001 base units, rounded up to 101.
    expect(sandboxForwardingFee(1_000_001n, USDC("1"))).toBe(200_101n);
    expect(sandboxForwardingFee(USDC("100"), USDC("0.15"))).toBe(150_000n);
    expect(sandboxForwardingFee(USDC("100"), 0n)).toBe(0n);
    expect(() => sandboxForwardingFee(0n, 1n)).toThrow(RangeError);
  });
});

describe("sandbox Circle", () => {
  it("is pending until the delay has passed by the clock, then mints amount less fee exactly once", async () => {
    const amount = USDC("100");
    const burned = await burn(amount, USDC("0.25"));
    const clock = new ManualClock(burned.at);
    const circle = circleAt(clock);
    const ask = () => circle.attestation({ sourceDomain: 3, burnTxHash: burned.hash });
    const usdc = addressOf(intermediate, "usdc");
    const supplyBefore = await totalSupplyOf(intermediate, usdc);
    const feesBefore = await intermediateUsdc(sandboxOperator.address);

    expect(await ask()).toEqual({ status: "pending" });
    clock.advance(DELAY_MS - 1_000);
    expect(await ask()).toEqual({ status: "pending" });
    expect(await intermediateUsdc(burned.recipient)).toBe(0n);

    clock.advance(1_000);
    const attested = await ask();
    expect(attested).toMatchObject({ status: "complete", forwardState: "confirmed", feeExecuted: 210_000n });
    expect(attested.forwardTxHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(attested.eventNonce).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await intermediateUsdc(burned.recipient)).toBe(amount - 210_000n);
    expect(await intermediateUsdc(sandboxOperator.address)).toBe(feesBefore + 210_000n);
    // Exactly what was burned on the source came into being on the intermediate chain.
    expect(await totalSupplyOf(intermediate, usdc)).toBe(supplyBefore + amount);

    // Asking again, even several at once, reports the same mint and mints nothing more.
    expect(await ask()).toEqual(attested);
    expect(await Promise.all([ask(), ask(), ask()])).toEqual([attested, attested, attested]);
    expect(await intermediateUsdc(burned.recipient)).toBe(amount - 210_000n);
    expect(await totalSupplyOf(intermediate, usdc)).toBe(supplyBefore + amount);
  });

  it("never takes more than the burn's maxFee", async () => {
    const burned = await burn(USDC("100"), USDC("0.15"));
    const clock = new ManualClock(burned.at);
    clock.advance(DELAY_MS);
    const attested = await circleAt(clock).attestation({ sourceDomain: 3, burnTxHash: burned.hash });
    expect(attested.feeExecuted).toBe(150_000n);
    expect(await intermediateUsdc(burned.recipient)).toBe(USDC("100") - 150_000n);
  });

  it("mints on chain with the real MintAndWithdraw: the amount received, the fee apart, from the messenger", async () => {
    const burned = await burn(USDC("42"), USDC("0.5"));
    const clock = new ManualClock(burned.at);
    clock.advance(DELAY_MS);
    const { forwardTxHash } = await circleAt(clock).attestation({ sourceDomain: 3, burnTxHash: burned.hash });
    if (!forwardTxHash) throw new Error("no forward transaction");
    const receipt = await sandboxPublicClient(intermediate).getTransactionReceipt({ hash: forwardTxHash });
    const [event, ...more] = parseEventLogs({
      abi: tokenMessengerV2Abi,
      eventName: "MintAndWithdraw",
      logs: receipt.logs,
    });
    expect(more).toEqual([]);
    expect(event?.address.toLowerCase()).toBe(addressOf(intermediate, "tokenMessenger").toLowerCase());
    expect(event?.args).toEqual({
      mintRecipient: burned.recipient,
      amount: USDC("42") - 204_200n,
      mintToken: addressOf(intermediate, "usdc"),
      feeCollected: 204_200n,
    });
  });

  it("attests but does not forward a burn that did not ask for the Forwarding Service", async () => {
    const burned = await burn(USDC("10"), USDC("0.25"), "0x01");
    const clock = new ManualClock(burned.at);
    clock.advance(DELAY_MS);
    const attested = await circleAt(clock).attestation({ sourceDomain: 3, burnTxHash: burned.hash });
    expect(attested.status).toBe("complete");
    expect(attested.forwardTxHash).toBeUndefined();
    expect(await intermediateUsdc(burned.recipient)).toBe(0n);
  });

  it("is pending, like Iris, for a transaction it cannot see or that burned nothing", async () => {
    const clock = new ManualClock();
    clock.advance(365 * 24 * 3600 * 1000 * 10);
    const circle = circleAt(clock);
    expect(await circle.attestation({ sourceDomain: 3, burnTxHash: `0x${"ab".repeat(32)}` })).toEqual({
      status: "pending",
    });
    const user = await fundFreshWallet(source);
    const notABurn = await mined(
      source,
      sandboxWalletClient(source, user).sendTransaction({ to: user.address, value: 1n }),
    );
    expect(await circle.attestation({ sourceDomain: 3, burnTxHash: notABurn.transactionHash })).toEqual({
      status: "pending",
    });
    await expect(
      circle.attestation({ sourceDomain: 0, burnTxHash: notABurn.transactionHash }),
    ).rejects.toThrow(RangeError);
  });

  it("is unavailable when the chains do not answer", async () => {
    const nobody = { ...source, rpcUrl: `http://127.0.0.1:${await freePort()}` };
    const circle = sandboxCircle({
      source: legChainOf(nobody),
      intermediate: intermediateLeg,
      operator: sandboxOperator,
      attestationDelayMs: 0,
      clock: new ManualClock(),
      timeoutMs: 300,
    });
    const failure = await failureOf(
      circle.attestation({ sourceDomain: 3, burnTxHash: `0x${"ab".repeat(32)}` }),
    );
    expect(failure.kind).toBe("unavailable");
    expect(failure.provider).toBe("sandbox-circle");
  });
});

describe("the forwarded mint observer", () => {
  it("finds the mint by Circle's transaction, by the burn hash and by amount, and nothing before it", async () => {
    const amount = USDC("250");
    const burned = await burn(amount, USDC("0.3"));
    const net = amount - sandboxForwardingFee(amount, USDC("0.3"));
    const query = { burnTxHash: burned.hash, mintRecipient: burned.recipient, fromBlock: 0n };

    expect(await observer(true).forwardedMint(query)).toBeUndefined();
    expect(await observer(false).forwardedMint({ ...query, expectedAmount: net })).toBeUndefined();

    const clock = new ManualClock(burned.at);
    clock.advance(DELAY_MS);
    const { forwardTxHash } = await circleAt(clock).attestation({ sourceDomain: 3, burnTxHash: burned.hash });
    if (!forwardTxHash) throw new Error("no forward transaction");
    const receipt = await sandboxPublicClient(intermediate).getTransactionReceipt({ hash: forwardTxHash });
    const expected = {
      amount: net,
      feeCollected: amount - net,
      txHash: forwardTxHash,
      blockNumber: receipt.blockNumber,
    };

    // Live: by the transaction Iris reports, or by amount; the sandbox: by the burn hash alone.
    expect(await observer(false).forwardedMint({ ...query, forwardTxHash })).toEqual(expected);
    expect(await observer(true).forwardedMint(query)).toEqual(expected);
    expect(await observer(false).forwardedMint({ ...query, expectedAmount: net })).toEqual(expected);
    // Without the look-back start the default window still reaches it.
    expect(
      await observer(true).forwardedMint({ burnTxHash: burned.hash, mintRecipient: burned.recipient }),
    ).toEqual(expected);
  });

  it("does not take another recipient's mint, another amount, or a burn it was not told how to match", async () => {
    const burned = await burn(USDC("7"), USDC("0.3"));
    const clock = new ManualClock(burned.at);
    clock.advance(DELAY_MS);
    const { forwardTxHash } = await circleAt(clock).attestation({ sourceDomain: 3, burnTxHash: burned.hash });
    const stranger = privateKeyToAccount(generatePrivateKey()).address;
    const query = { burnTxHash: burned.hash, mintRecipient: burned.recipient, fromBlock: 0n };

    expect(
      await observer(false).forwardedMint({ ...query, mintRecipient: stranger, forwardTxHash }),
    ).toBeUndefined();
    expect(await observer(true).forwardedMint({ ...query, mintRecipient: stranger })).toBeUndefined();
    expect(await observer(false).forwardedMint({ ...query, expectedAmount: USDC("7") })).toBeUndefined();
    // Circle's messenger logs no burn hash: a live observer with no hint finds nothing rather than guessing.
    expect(await observer(false).forwardedMint(query)).toBeUndefined();
  });
});

describe("the sandbox messenger's forwardMint", () => {
  const messengerOf = (chain: SandboxChain) => addressOf(chain, "tokenMessenger");

  it("is the owner's alone, mints once per burn, and refuses a fee that eats the amount", async () => {
    const recipient = privateKeyToAccount(generatePrivateKey()).address;
    const burnHash = `0x${"cd".repeat(32)}` as Hex;
    const client = sandboxPublicClient(intermediate);
    const stranger = await fundFreshWallet(intermediate);
    const simulate = (account: Account, amount: bigint, fee: bigint, hash: Hex = burnHash) =>
      client.simulateContract({
        account,
        address: messengerOf(intermediate),
        abi: sandboxTokenMessengerV2Abi,
        functionName: "forwardMint",
        args: [hash, recipient, amount, fee],
      });

    expect(await revertReason(simulate(stranger, 10n, 0n))).toBe("Ownable: caller is not the owner");
    expect(await revertReason(simulate(sandboxOperator, 10n, 10n))).toBe("Fee equals or exceeds amount");

    await mined(
      intermediate,
      sandboxWalletClient(intermediate, sandboxOperator).writeContract({
        address: messengerOf(intermediate),
        abi: sandboxTokenMessengerV2Abi,
        functionName: "forwardMint",
        args: [burnHash, recipient, 10n, 0n],
      }),
    );
    expect(await intermediateUsdc(recipient)).toBe(10n);
    expect(
      await client.readContract({
        address: messengerOf(intermediate),
        abi: sandboxTokenMessengerV2Abi,
        functionName: "forwarded",
        args: [burnHash],
      }),
    ).toBe(true);
    expect(await revertReason(simulate(sandboxOperator, 10n, 0n))).toBe("Burn already forwarded");
  });

  it("mints nothing on the source chain, whose messenger only burns", async () => {
    const reason = await revertReason(
      sandboxPublicClient(source).simulateContract({
        account: sandboxOperator,
        address: messengerOf(source),
        abi: sandboxTokenMessengerV2Abi,
        functionName: "forwardMint",
        args: [`0x${"ef".repeat(32)}`, sandboxOperator.address, 10n, 0n],
      }),
    );
    expect(reason).toBe("Local minter is not set");
  });
});
