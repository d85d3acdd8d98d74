import {
  type Hex,
  keccak256,
  pad,
  parseAbi,
  parseEventLogs,
  parseUnits,
  recoverAddress,
  toHex,
  zeroHash,
} from "viem";
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
  sandboxWalletClient,
  startSandboxChains,
} from "../../dev/chains";
import { messageTransmitterV2Abi, tokenMessengerV2Abi } from "../../lib/kernel/chain/abis";
import { decodeCctpBurnMessage } from "../../lib/kernel/chain/cctp-message";
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
const SLOW_MS = 40 * 60_000;
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

function circleAt(clock: ManualClock, testAmounts = true) {
  return sandboxCircle({
    source: sourceLeg,
    intermediate: intermediateLeg,
    operator: sandboxOperator,
    attestationDelayMs: DELAY_MS,
    slowLegMs: SLOW_MS,
    testAmounts,
    clock,
  });
}

function observer() {
  return forwardedMintObserver({
    client: intermediateLeg.client,
    messageTransmitter: addressOf(intermediate, "messageTransmitter"),
    tokenMessenger: addressOf(intermediate, "tokenMessenger"),
    usdc: addressOf(intermediate, "usdc"),
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
  it("is the 1 bps Fast fee rounded up (0 for Standard) plus 0.2 USDC, capped at the burn's maxFee", () => {
    // 100 USDC: 0.01 + 0.2 USDC.
    expect(sandboxForwardingFee(USDC("100"), USDC("0.25"), FAST_FINALITY)).toBe(210_000n);
    // 1.000001 USDC: 1 bps is 100.0001 base units, rounded up to 101.
    expect(sandboxForwardingFee(1_000_001n, USDC("1"), FAST_FINALITY)).toBe(200_101n);
    expect(sandboxForwardingFee(USDC("100"), USDC("0.15"), FAST_FINALITY)).toBe(150_000n);
    expect(sandboxForwardingFee(USDC("100"), 0n, FAST_FINALITY)).toBe(0n);
    expect(() => sandboxForwardingFee(0n, 1n, FAST_FINALITY)).toThrow(RangeError);
    // Standard finality: no protocol fee, the forwarding fee alone.
    expect(sandboxForwardingFee(USDC("100"), USDC("0.25"), 2000)).toBe(200_000n);
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
    // Circle's message for this burn, signed by the attester over its hash.
    const message = decodeCctpBurnMessage(attested.message ?? "0x");
    expect(message).toMatchObject({
      sourceDomain: 3,
      destinationDomain: INTERMEDIATE_DOMAIN,
      nonce: attested.eventNonce,
      mintRecipient: pad(burned.recipient, { size: 32 }).toLowerCase(),
      amount,
      maxFee: USDC("0.25"),
      feeExecuted: 210_000n,
      minFinalityThreshold: FAST_FINALITY,
      hookData: CCTP_FORWARD_HOOK_DATA,
    });
    expect(
      await recoverAddress({
        hash: keccak256(attested.message ?? "0x"),
        signature: attested.attestation ?? "0x",
      }),
    ).toBe(sandboxOperator.address);
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
      slowLegMs: 0,
      testAmounts: false,
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
  it("finds the mint by the message nonce, through Circle's transaction or the transmitter's logs, and nothing before it", async () => {
    const amount = USDC("250");
    const burned = await burn(amount, USDC("0.3"));
    const net = amount - sandboxForwardingFee(amount, USDC("0.3"), FAST_FINALITY);
    const clock = new ManualClock(burned.at);
    const circle = circleAt(clock);
    expect(await circle.attestation({ sourceDomain: 3, burnTxHash: burned.hash })).toEqual({
      status: "pending",
    });

    clock.advance(DELAY_MS);
    const { forwardTxHash, eventNonce } = await circle.attestation({
      sourceDomain: 3,
      burnTxHash: burned.hash,
    });
    if (!forwardTxHash || !eventNonce) throw new Error("no forward transaction");
    const receipt = await sandboxPublicClient(intermediate).getTransactionReceipt({ hash: forwardTxHash });
    const expected = {
      amount: net,
      feeCollected: amount - net,
      txHash: forwardTxHash,
      blockNumber: receipt.blockNumber,
    };
    const query = { eventNonce: eventNonce as Hex, mintRecipient: burned.recipient, fromBlock: 0n };

    expect(await observer().forwardedMint({ ...query, forwardTxHash })).toEqual(expected);
    expect(await observer().forwardedMint(query)).toEqual(expected);
    // Without the look-back start the default window still reaches it.
    expect(
      await observer().forwardedMint({ eventNonce: eventNonce as Hex, mintRecipient: burned.recipient }),
    ).toEqual(expected);
  });

  it("does not take another recipient's mint, nor a mint of the same amount for another nonce", async () => {
    const [first, second] = [await burn(USDC("7"), USDC("0.3")), await burn(USDC("7"), USDC("0.3"))];
    const clock = new ManualClock(second.at);
    clock.advance(DELAY_MS);
    const circle = circleAt(clock);
    const one = await circle.attestation({ sourceDomain: 3, burnTxHash: first.hash });
    const two = await circle.attestation({ sourceDomain: 3, burnTxHash: second.hash });
    const stranger = privateKeyToAccount(generatePrivateKey()).address;
    const nonceOne = one.eventNonce as Hex;

    expect(
      await observer().forwardedMint({
        eventNonce: nonceOne,
        mintRecipient: stranger,
        forwardTxHash: one.forwardTxHash,
      }),
    ).toBeUndefined();
    // The second burn's mint has the same amount: reported as the first's transaction, it is not
    // taken; the first's own mint is found by its nonce instead.
    const found = await observer().forwardedMint({
      eventNonce: nonceOne,
      mintRecipient: first.recipient,
      forwardTxHash: two.forwardTxHash,
    });
    expect(found?.txHash).toBe(one.forwardTxHash);
    expect(found?.txHash).not.toBe(two.forwardTxHash);
    const unknown = keccak256(toHex("a nonce Circle never assigned"));
    expect(
      await observer().forwardedMint({ eventNonce: unknown, mintRecipient: first.recipient }),
    ).toBeUndefined();
  });
});

describe("the sandbox's test amounts (mock mode's magic cents)", () => {
  // The burn plan's maxFee is the quote's upfront fee, so amount - maxFee is the order's sendAmountUsdc.
  const maxFee = USDC("0.25");
  const burnFor = (principal: string) => burn(USDC(principal) + maxFee, maxFee);

  it(".71: Circle attests but its forward fails; anyone's relay of the attested message mints once, and Circle then reports that mint", async () => {
    const burned = await burnFor("25.71");
    const clock = new ManualClock(burned.at);
    clock.advance(DELAY_MS);
    const circle = circleAt(clock);
    const attested = await circle.attestation({ sourceDomain: 3, burnTxHash: burned.hash });
    expect(attested).toMatchObject({ status: "complete", forwardState: "failed" });
    expect(attested.forwardTxHash).toBeUndefined();
    expect(await intermediateUsdc(burned.recipient)).toBe(0n);
    // Asking again does not forward it either.
    expect(await circle.attestation({ sourceDomain: 3, burnTxHash: burned.hash })).toEqual(attested);
    expect(await intermediateUsdc(burned.recipient)).toBe(0n);

    const relayer = await fundFreshWallet(intermediate);
    const relayed = await mined(
      intermediate,
      sandboxWalletClient(intermediate, relayer).writeContract({
        address: addressOf(intermediate, "messageTransmitter"),
        abi: messageTransmitterV2Abi,
        functionName: "receiveMessage",
        args: [attested.message ?? "0x", attested.attestation ?? "0x"],
      }),
    );
    const fee = sandboxForwardingFee(USDC("25.71") + maxFee, maxFee, FAST_FINALITY);
    expect(await intermediateUsdc(burned.recipient)).toBe(USDC("25.71") + maxFee - fee);
    expect(await circle.attestation({ sourceDomain: 3, burnTxHash: burned.hash })).toEqual({
      ...attested,
      forwardTxHash: relayed.transactionHash,
    });
    expect(
      await observer().forwardedMint({
        eventNonce: attested.eventNonce as Hex,
        mintRecipient: burned.recipient,
      }),
    ).toMatchObject({ txHash: relayed.transactionHash, amount: USDC("25.71") + maxFee - fee });
  });

  it(".72: Circle's fee is above the burn's maxFee (delayReason insufficient_fee) for the slow leg, then it attests and forwards", async () => {
    const burned = await burnFor("30.72");
    const clock = new ManualClock(burned.at);
    const circle = circleAt(clock);
    clock.advance(DELAY_MS);
    expect(await circle.attestation({ sourceDomain: 3, burnTxHash: burned.hash })).toEqual({
      status: "pending",
      delayReason: "insufficient_fee",
    });
    clock.advance(SLOW_MS - DELAY_MS - 1_000);
    expect(await circle.attestation({ sourceDomain: 3, burnTxHash: burned.hash })).toMatchObject({
      status: "pending",
      delayReason: "insufficient_fee",
    });
    clock.advance(1_000);
    const attested = await circle.attestation({ sourceDomain: 3, burnTxHash: burned.hash });
    expect(attested).toMatchObject({ status: "complete", forwardState: "confirmed" });
    expect(attested.feeExecuted).toBeLessThanOrEqual(maxFee);
    expect(await intermediateUsdc(burned.recipient)).toBe(
      USDC("30.72") + maxFee - (attested.feeExecuted ?? 0n),
    );
  });

  it(".73: the attestation comes only after the slow leg, with no reason given; other cents attest on time", async () => {
    const late = await burnFor("12.73");
    const normal = await burnFor("12.70");
    const clock = new ManualClock(normal.at);
    const circle = circleAt(clock);
    clock.advance(DELAY_MS);
    expect(await circle.attestation({ sourceDomain: 3, burnTxHash: late.hash })).toEqual({
      status: "pending",
    });
    expect(await circle.attestation({ sourceDomain: 3, burnTxHash: normal.hash })).toMatchObject({
      status: "complete",
      forwardState: "confirmed",
    });
    clock.advance(SLOW_MS);
    expect(await circle.attestation({ sourceDomain: 3, burnTxHash: late.hash })).toMatchObject({
      status: "complete",
      forwardState: "confirmed",
    });
  });
});

describe("the sandbox's test amounts in live mode", () => {
  it("are ordinary amounts: a .71, .72 or .73 burn is attested on time and forwarded", async () => {
    const maxFee = USDC("0.25");
    const burns = [
      await burn(USDC("9.71") + maxFee, maxFee),
      await burn(USDC("9.72") + maxFee, maxFee),
      await burn(USDC("9.73") + maxFee, maxFee),
    ];
    const clock = new ManualClock(burns[2]?.at);
    clock.advance(DELAY_MS);
    const live = circleAt(clock, false);
    for (const burned of burns) {
      expect(await live.attestation({ sourceDomain: 3, burnTxHash: burned.hash })).toMatchObject({
        status: "complete",
        forwardState: "confirmed",
      });
    }
  });
});

describe("the sandbox messenger's receive side", () => {
  it("mints only for its transmitter, never for a direct call", async () => {
    const stranger = await fundFreshWallet(intermediate);
    const reason = await revertReason(
      sandboxPublicClient(intermediate).simulateContract({
        account: stranger,
        address: addressOf(intermediate, "tokenMessenger"),
        abi: parseAbi([
          "function handleReceiveFinalizedMessage(uint32 remoteDomain, bytes32 sender, uint32 finality, bytes messageBody) returns (bool)",
        ]),
        functionName: "handleReceiveFinalizedMessage",
        args: [3, pad(addressOf(source, "tokenMessenger"), { size: 32 }), 2000, "0x"],
      }),
    );
    expect(reason).toBe("Invalid message transmitter");
  });

  it("carries a return the other way: a forwarded burn on the intermediate chain mints on the source chain", async () => {
    const amount = USDC("20");
    const maxFee = USDC("0.24");
    const usdc = addressOf(intermediate, "usdc");
    const messenger = addressOf(intermediate, "tokenMessenger");
    const sender = await fundFreshWallet(intermediate, [{ token: usdc, amount }]);
    await approve(intermediate, sender, usdc, messenger, amount);
    const recipient = privateKeyToAccount(generatePrivateKey()).address;
    const receipt = await mined(
      intermediate,
      sandboxWalletClient(intermediate, sender).writeContract({
        address: messenger,
        abi: tokenMessengerV2Abi,
        functionName: "depositForBurnWithHook",
        args: [amount, 3, pad(recipient, { size: 32 }), usdc, zeroHash, maxFee, 2000, CCTP_FORWARD_HOOK_DATA],
      }),
    );
    const clock = new ManualClock(await blockTimeOf(intermediate, receipt.blockNumber));
    clock.advance(DELAY_MS);
    const attested = await circleAt(clock).attestation({
      sourceDomain: INTERMEDIATE_DOMAIN,
      burnTxHash: receipt.transactionHash,
    });
    expect(attested).toMatchObject({ status: "complete", forwardState: "confirmed", feeExecuted: 200_000n });
    expect(await balanceOf(source, addressOf(source, "usdc"), recipient)).toBe(amount - 200_000n);
  });
});
