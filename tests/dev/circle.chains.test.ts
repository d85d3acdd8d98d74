import {
  encodeFunctionData,
  erc20Abi,
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
  compileSandboxContracts,
  fundFreshWallet,
  LOCAL_CIRCLE_ATTESTER_KEY,
  LOCAL_CIRCLE_FORWARDER_KEY,
  type RunningSandboxChains,
  revertReason,
  type SandboxChain,
  sandboxChainOf,
  sandboxOperator,
  sandboxPublicClient,
  sandboxWalletClient,
  startSandboxChains,
} from "../../dev/chains";
import {
  DEFAULT_CIRCLE_FEES,
  feeExecutedOf,
  IRIS_RATE_LIMIT,
  type LocalCircle,
  startLocalCircle,
} from "../../dev/circle";
import type { VendorRateLimit } from "../../dev/vendor-rate-limit";
import { messageTransmitterV2Abi, tokenMessengerV2Abi } from "../../lib/kernel/chain/abis";
import { decodeCctpBurnMessage } from "../../lib/kernel/chain/cctp-message";
import { ManualClock } from "../../lib/kernel/clock";
import { ProviderFailure } from "../../lib/kernel/provider-failure";
import type { Attestation } from "../../lib/settlement/legs/ports";
import { forwardedMintObserver } from "../../lib/vendors/circle/forwarded-mint-observer";
import { irisAttestation } from "../../lib/vendors/circle/iris-attestation";
import { irisTransferFees } from "../../lib/vendors/circle/iris-fees";
import { freePort } from "../harness/free-port";
import { addressOf, approve, balanceOf, blockTimeOf, mined, totalSupplyOf } from "../vendors/leg-chains";

const USDC = (amount: string) => parseUnits(amount, 6);
const FAST_FINALITY = 1000;
const DELAY_MS = 20_000;
const SLOW_MS = 40 * 60_000;
const INTERMEDIATE_DOMAIN = 6;

let running: RunningSandboxChains;
let source: SandboxChain;
let intermediate: SandboxChain;
const circles: LocalCircle[] = [];

beforeAll(async () => {
  running = await startSandboxChains();
  source = sandboxChainOf(running.network, "source");
  intermediate = sandboxChainOf(running.network, "intermediate");
});
afterAll(async () => {
  for (const circle of circles) await circle.close();
  await running?.close();
});

const attester = privateKeyToAccount(LOCAL_CIRCLE_ATTESTER_KEY).address;
const forwarder = privateKeyToAccount(LOCAL_CIRCLE_FORWARDER_KEY).address;

function cctpOf(chain: SandboxChain) {
  return {
    chainId: chain.chainId,
    name: chain.name,
    rpcUrl: chain.rpcUrl,
    cctpDomain: chain.cctpDomain as number,
    tokenMessenger: addressOf(chain, "tokenMessenger"),
    messageTransmitter: addressOf(chain, "messageTransmitter"),
  };
}

/** A local Circle on `clock`, started for the test, as the worker reaches it: Iris's API. */
async function startCircle(
  clock: ManualClock,
  options: { testAmounts?: boolean; rateLimit?: VendorRateLimit; chains?: ReturnType<typeof cctpOf>[] } = {},
) {
  const circle = await startLocalCircle({
    chains: options.chains ?? [cctpOf(source), cctpOf(intermediate)],
    attesterKey: LOCAL_CIRCLE_ATTESTER_KEY,
    forwarderKey: LOCAL_CIRCLE_FORWARDER_KEY,
    attestationDelayMs: DELAY_MS,
    slowLegMs: SLOW_MS,
    testAmounts: options.testAmounts ?? true,
    settlementDomain: INTERMEDIATE_DOMAIN,
    ...(options.rateLimit ? { rateLimit: options.rateLimit } : {}),
    now: () => clock.now(),
  });
  circles.push(circle);
  return circle;
}

/**
 * The production adapter over a local Circle: the one message of a single-burn transaction, or
 * pending while Iris has none (as the service reads it).
 */
async function circleAt(clock: ManualClock, testAmounts = true) {
  const iris = irisAttestation({
    baseUrl: (await startCircle(clock, { testAmounts })).url,
    timeoutMs: 10_000,
  });
  return {
    iris,
    async attestation(request: { sourceDomain: number; burnTxHash: Hex }): Promise<Attestation> {
      const [message] = await iris.messages(request);
      if (!message) return { status: "pending" };
      const { described: _described, ...rest } = message;
      return rest;
    },
  };
}

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

function observer() {
  return forwardedMintObserver({
    client: sandboxPublicClient(intermediate),
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

const sandboxForwardingFee = (amount: bigint, maxFee: bigint, minFinalityThreshold: number) =>
  feeExecutedOf(DEFAULT_CIRCLE_FEES, { amount, maxFee, minFinalityThreshold }, true);

describe("the local Circle's fees", () => {
  it("takes the 1 bps Fast fee rounded up (0 for Standard) plus 0.2 USDC, capped at the burn's maxFee", () => {
    // 100 USDC: 0.01 + 0.2 USDC.
    expect(sandboxForwardingFee(USDC("100"), USDC("0.25"), FAST_FINALITY)).toBe(210_000n);
    // 1.000001 USDC: 1 bps is 100.0001 base units, rounded up to 101.
    expect(sandboxForwardingFee(1_000_001n, USDC("1"), FAST_FINALITY)).toBe(200_101n);
    expect(sandboxForwardingFee(USDC("100"), USDC("0.15"), FAST_FINALITY)).toBe(150_000n);
    expect(sandboxForwardingFee(USDC("100"), 0n, FAST_FINALITY)).toBe(0n);
    // Standard finality: no protocol fee, the forwarding fee alone.
    expect(sandboxForwardingFee(USDC("100"), USDC("0.25"), 2000)).toBe(200_000n);
  });

  it("quotes exactly those through Iris's fee endpoint, read by the production adapter, and no route to a domain it does not serve", async () => {
    const fees = irisTransferFees({ baseUrl: (await startCircle(new ManualClock())).url });
    expect(
      await fees.transferFees({ sourceDomain: 3, destinationDomain: 6, finalityThreshold: 1000 }),
    ).toEqual({
      minimumFee: { numerator: 1n, denominator: 10_000n },
      forwardFeeUsdc: 200_000n,
    });
    expect(
      await fees.transferFees({ sourceDomain: 6, destinationDomain: 3, finalityThreshold: 2000 }),
    ).toEqual({
      minimumFee: { numerator: 0n, denominator: 1n },
      forwardFeeUsdc: 200_000n,
    });
    await expect(
      fees.transferFees({ sourceDomain: 3, destinationDomain: 7, finalityThreshold: 1000 }),
    ).rejects.toMatchObject({ kind: "no_route" });
  });
});

describe("the local Circle (Iris and the Forwarding Service)", () => {
  it("is pending until the delay has passed by the clock, then mints amount less fee exactly once", async () => {
    const amount = USDC("100");
    const burned = await burn(amount, USDC("0.25"));
    const clock = new ManualClock(burned.at);
    const circle = await circleAt(clock);
    const ask = () => circle.attestation({ sourceDomain: 3, burnTxHash: burned.hash });
    const usdc = addressOf(intermediate, "usdc");
    const supplyBefore = await totalSupplyOf(intermediate, usdc);
    const feesBefore = await intermediateUsdc(sandboxOperator.address);

    expect(await ask()).toMatchObject({ status: "pending" });
    clock.advance(DELAY_MS - 1_000);
    expect(await ask()).toMatchObject({ status: "pending" });
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
    ).toBe(attester);
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
    const attested = await (await circleAt(clock)).attestation({ sourceDomain: 3, burnTxHash: burned.hash });
    expect(attested.feeExecuted).toBe(150_000n);
    expect(await intermediateUsdc(burned.recipient)).toBe(USDC("100") - 150_000n);
  });

  it("mints on chain with the real MintAndWithdraw: the amount received, the fee apart, from the messenger", async () => {
    const burned = await burn(USDC("42"), USDC("0.5"));
    const clock = new ManualClock(burned.at);
    clock.advance(DELAY_MS);
    const { forwardTxHash } = await (await circleAt(clock)).attestation({
      sourceDomain: 3,
      burnTxHash: burned.hash,
    });
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
    const attested = await (await circleAt(clock)).attestation({ sourceDomain: 3, burnTxHash: burned.hash });
    expect(attested.status).toBe("complete");
    expect(attested.forwardTxHash).toBeUndefined();
    expect(await intermediateUsdc(burned.recipient)).toBe(0n);
  });

  it("has no message, like Iris (404), for a transaction it cannot see, that burned nothing, or a domain it does not serve", async () => {
    const clock = new ManualClock();
    clock.advance(365 * 24 * 3600 * 1000 * 10);
    const circle = await circleAt(clock);
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
    expect(await circle.iris.messages({ sourceDomain: 0, burnTxHash: notABurn.transactionHash })).toEqual([]);
  });

  it("answers 500 when the chains do not answer, which the adapter reads as unavailable", async () => {
    const nobody = { ...cctpOf(source), rpcUrl: `http://127.0.0.1:${await freePort()}` };
    const circle = await startCircle(new ManualClock(), { chains: [nobody, cctpOf(intermediate)] });
    const failure = await failureOf(
      irisAttestation({ baseUrl: circle.url }).messages({
        sourceDomain: 3,
        burnTxHash: `0x${"ab".repeat(32)}`,
      }),
    );
    expect(failure.kind).toBe("unavailable");
    expect(failure.provider).toBe("circle-iris");
    expect(failure.message).toMatch(/HTTP 500/);
  });

  it("lists one message per burn of a transaction, in log order, each with its own nonce and mint", async () => {
    const usdc = addressOf(source, "usdc");
    const messenger = addressOf(source, "tokenMessenger");
    const user = await fundFreshWallet(source, [{ token: usdc, amount: USDC("30") }]);
    const { SandboxSmartWalletFactory, SandboxSmartWallet } = await compileSandboxContracts();
    const deployer = sandboxWalletClient(source, sandboxOperator);
    const factory = (
      await sandboxPublicClient(source).waitForTransactionReceipt({
        hash: await deployer.deployContract({
          abi: SandboxSmartWalletFactory.abi,
          bytecode: SandboxSmartWalletFactory.bytecode,
        }),
      })
    ).contractAddress as Hex;
    await mined(
      source,
      deployer.writeContract({
        address: factory,
        abi: SandboxSmartWalletFactory.abi,
        functionName: "deploy",
        args: [user.address, zeroHash],
      }),
    );
    const wallet = (await sandboxPublicClient(source).readContract({
      address: factory,
      abi: SandboxSmartWalletFactory.abi,
      functionName: "addressOf",
      args: [user.address, zeroHash],
    })) as Hex;
    await mined(
      source,
      sandboxWalletClient(source, user).writeContract({
        address: usdc,
        abi: parseAbi(["function transfer(address to, uint256 amount) returns (bool)"]),
        functionName: "transfer",
        args: [wallet, USDC("30")],
      }),
    );
    const [first, second] = [
      privateKeyToAccount(generatePrivateKey()).address,
      privateKeyToAccount(generatePrivateKey()).address,
    ];
    const burnCall = (amount: bigint, recipient: Hex) => ({
      target: messenger,
      data: encodeFunctionData({
        abi: tokenMessengerV2Abi,
        functionName: "depositForBurnWithHook",
        args: [
          amount,
          INTERMEDIATE_DOMAIN,
          pad(recipient, { size: 32 }),
          usdc,
          zeroHash,
          USDC("0.25"),
          FAST_FINALITY,
          CCTP_FORWARD_HOOK_DATA,
        ],
      }),
    });
    const receipt = await mined(
      source,
      sandboxWalletClient(source, user).writeContract({
        address: wallet,
        abi: SandboxSmartWallet.abi,
        functionName: "execute",
        args: [
          [
            {
              target: usdc,
              data: encodeFunctionData({
                abi: erc20Abi,
                functionName: "approve",
                args: [messenger, USDC("30")],
              }),
            },
            burnCall(USDC("10"), first),
            burnCall(USDC("20"), second),
          ],
        ],
      }),
    );
    const clock = new ManualClock(await blockTimeOf(source, receipt.blockNumber));
    clock.advance(DELAY_MS);
    const { iris } = await circleAt(clock);
    const messages = await iris.messages({ sourceDomain: 3, burnTxHash: receipt.transactionHash });
    expect(messages.map((message) => message.described?.amount)).toEqual([USDC("10"), USDC("20")]);
    expect(new Set(messages.map((message) => message.eventNonce)).size).toBe(2);
    expect(messages.map((message) => decodeCctpBurnMessage(message.message ?? "0x")?.mintRecipient)).toEqual([
      pad(first, { size: 32 }).toLowerCase(),
      pad(second, { size: 32 }).toLowerCase(),
    ]);
    expect(await intermediateUsdc(first)).toBe(
      USDC("10") - sandboxForwardingFee(USDC("10"), USDC("0.25"), FAST_FINALITY),
    );
    expect(await intermediateUsdc(second)).toBe(
      USDC("20") - sandboxForwardingFee(USDC("20"), USDC("0.25"), FAST_FINALITY),
    );
  });

  it("keeps Circle's rate limit: past 35 requests a second every request is refused for five minutes (429)", async () => {
    const clock = new ManualClock();
    const circle = await startCircle(clock, { rateLimit: IRIS_RATE_LIMIT });
    const iris = irisAttestation({ baseUrl: circle.url, now: () => clock.now() });
    const ask = () => iris.messages({ sourceDomain: 3, burnTxHash: `0x${"ab".repeat(32)}` });
    for (let request = 0; request < 35; request++) expect(await ask()).toEqual([]);
    const blocked = await failureOf(ask());
    expect(blocked).toMatchObject({ kind: "unavailable", retryAfterMs: 5 * 60_000 });
    expect(blocked.message).toMatch(/HTTP 429/);
    clock.advance(5 * 60_000 - 1_000);
    expect((await failureOf(ask())).message).toMatch(/HTTP 429/);
    clock.advance(1_000);
    expect(await ask()).toEqual([]);
  });
});

describe("the forwarded mint observer", () => {
  it("finds the mint by the message nonce, through Circle's transaction or the transmitter's logs, and nothing before it", async () => {
    const amount = USDC("250");
    const burned = await burn(amount, USDC("0.3"));
    const net = amount - sandboxForwardingFee(amount, USDC("0.3"), FAST_FINALITY);
    const clock = new ManualClock(burned.at);
    const circle = await circleAt(clock);
    expect(await circle.attestation({ sourceDomain: 3, burnTxHash: burned.hash })).toMatchObject({
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
      caller: forwarder,
    };
    const query = { eventNonce: eventNonce as Hex, mintRecipient: burned.recipient, after: burned.at };

    expect(await observer().forwardedMint({ ...query, forwardTxHash })).toEqual(expected);
    expect(await observer().forwardedMint(query)).toEqual(expected);
    // Searched from the chain's start in ranges of one block, it is still found.
    expect(
      await forwardedMintObserver({
        client: sandboxPublicClient(intermediate),
        messageTransmitter: addressOf(intermediate, "messageTransmitter"),
        tokenMessenger: addressOf(intermediate, "tokenMessenger"),
        usdc: addressOf(intermediate, "usdc"),
        logRangeBlocks: 1n,
      }).forwardedMint({ eventNonce: eventNonce as Hex, mintRecipient: burned.recipient }),
    ).toEqual(expected);
    // Nothing before the burn: searched from an hour after the mint's block, it is not there.
    const mintBlock = await sandboxPublicClient(intermediate).getBlock({ blockNumber: receipt.blockNumber });
    const later = new Date((Number(mintBlock.timestamp) + 3_600) * 1000);
    expect(await observer().forwardedMint({ ...query, after: later })).toBeUndefined();
  });

  it("does not take another recipient's mint, nor a mint of the same amount for another nonce", async () => {
    const [first, second] = [await burn(USDC("7"), USDC("0.3")), await burn(USDC("7"), USDC("0.3"))];
    const clock = new ManualClock(second.at);
    clock.advance(DELAY_MS);
    const circle = await circleAt(clock);
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

describe("the local Circle's test amounts (the sandbox's magic cents)", () => {
  // The burn plan's maxFee is the quote's upfront fee, so amount - maxFee is the order's sendAmountUsdc.
  const maxFee = USDC("0.25");
  const burnFor = (principal: string) => burn(USDC(principal) + maxFee, maxFee);

  it(".71: Circle attests but its forward fails; anyone's relay of the attested message mints once, found by its nonce (Circle reports no transaction it did not send)", async () => {
    const burned = await burnFor("25.71");
    const clock = new ManualClock(burned.at);
    clock.advance(DELAY_MS);
    const circle = await circleAt(clock);
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
    expect(await circle.attestation({ sourceDomain: 3, burnTxHash: burned.hash })).toEqual(attested);
    expect(
      await observer().forwardedMint({
        eventNonce: attested.eventNonce as Hex,
        mintRecipient: burned.recipient,
        after: burned.at,
      }),
    ).toMatchObject({
      txHash: relayed.transactionHash,
      amount: USDC("25.71") + maxFee - fee,
      caller: relayer.address,
    });
  });

  it(".72: Circle's fee is above the burn's maxFee (delayReason insufficient_fee) for the slow leg, then it attests and forwards", async () => {
    const burned = await burnFor("30.72");
    const clock = new ManualClock(burned.at);
    const circle = await circleAt(clock);
    clock.advance(DELAY_MS);
    expect(await circle.attestation({ sourceDomain: 3, burnTxHash: burned.hash })).toMatchObject({
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
    const circle = await circleAt(clock);
    clock.advance(DELAY_MS);
    const pending = await circle.attestation({ sourceDomain: 3, burnTxHash: late.hash });
    expect(pending).toMatchObject({ status: "pending" });
    expect(pending.delayReason).toBeUndefined();
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

describe("an expired attestation (.82)", () => {
  it("cannot be relayed until Circle is asked to re-attest it (POST /v2/reattest/{nonce}); then it mints once", async () => {
    const maxFee = USDC("0.25");
    const burned = await burn(USDC("15.82") + maxFee, maxFee);
    const clock = new ManualClock(burned.at);
    clock.advance(DELAY_MS);
    const circle = await circleAt(clock);
    const expired = await circle.attestation({ sourceDomain: 3, burnTxHash: burned.hash });
    expect(expired).toMatchObject({ status: "complete", forwardState: "failed" });
    expect(decodeCctpBurnMessage(expired.message ?? "0x")?.expirationBlock).toBe(1n);
    const relayer = await fundFreshWallet(intermediate);
    const relay = (message: Attestation) =>
      sandboxPublicClient(intermediate).simulateContract({
        account: relayer,
        address: addressOf(intermediate, "messageTransmitter"),
        abi: messageTransmitterV2Abi,
        functionName: "receiveMessage",
        args: [message.message ?? "0x", message.attestation ?? "0x"],
      });
    expect(await revertReason(relay(expired))).toBe("Message expired and must be re-signed");

    await circle.iris.reattest(expired.eventNonce as Hex);
    const fresh = await circle.attestation({ sourceDomain: 3, burnTxHash: burned.hash });
    expect(fresh.eventNonce).toBe(expired.eventNonce);
    expect(decodeCctpBurnMessage(fresh.message ?? "0x")).toMatchObject({
      expirationBlock: 0n,
      finalityThresholdExecuted: 2000,
    });
    await mined(
      intermediate,
      sandboxWalletClient(intermediate, relayer).writeContract((await relay(fresh)).request),
    );
    expect(await intermediateUsdc(burned.recipient)).toBeGreaterThan(USDC("15"));
    await expect(circle.iris.reattest(keccak256(toHex("no such nonce")))).rejects.toMatchObject({
      kind: "unavailable",
    });
  });
});

describe("the local Circle without test amounts", () => {
  it("takes them for ordinary amounts: a .71, .72 or .73 burn is attested on time and forwarded", async () => {
    const maxFee = USDC("0.25");
    const burns = [
      await burn(USDC("9.71") + maxFee, maxFee),
      await burn(USDC("9.72") + maxFee, maxFee),
      await burn(USDC("9.73") + maxFee, maxFee),
    ];
    const clock = new ManualClock(burns[2]?.at);
    clock.advance(DELAY_MS);
    const live = await circleAt(clock, false);
    for (const burned of burns) {
      expect(await live.attestation({ sourceDomain: 3, burnTxHash: burned.hash })).toMatchObject({
        status: "complete",
        forwardState: "confirmed",
      });
    }
  });
});

describe("the local messenger's receive side", () => {
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
    const attested = await (await circleAt(clock)).attestation({
      sourceDomain: INTERMEDIATE_DOMAIN,
      burnTxHash: receipt.transactionHash,
    });
    expect(attested).toMatchObject({ status: "complete", forwardState: "confirmed", feeExecuted: 200_000n });
    expect(await balanceOf(source, addressOf(source, "usdc"), recipient)).toBe(amount - 200_000n);
  });
});
