import {
  encodeAbiParameters,
  getAbiItem,
  type Hex,
  keccak256,
  padHex,
  parseEventLogs,
  sliceHex,
  zeroHash,
} from "viem";
import type { PrivateKeyAccount } from "viem/accounts";
import { messageTransmitterV2Abi, tokenMessengerV2Abi } from "../../kernel/chain/abis";
import { encodeCctpBurnMessage } from "../../kernel/chain/cctp-message";
import { chainUnavailable } from "../../kernel/chain/failure";
import { asksForwarding as hookAsksForwarding } from "../../kernel/chain/forwarding";
import { type LegChain, requiredContract, requiredDomain } from "../../kernel/chain/leg-chain";
import { receiptOrUndefined } from "../../kernel/chain/receipt";
import type { Clock } from "../../kernel/clock";
import { withinDeadline } from "../../kernel/deadline";
import { DEFAULT_PROVIDER_TIMEOUT_MS } from "../../kernel/provider-failure";
import { operatorWallet, sendUnlessDone } from "../../sandbox/operator";
import type { Attestation, AttestationProvider } from "../../settlement/leg-ports";
import { sandboxForwardingFee } from "./forwarding-fee";
import { principalOfBurn, sandboxOutcomeOf } from "./magic-amounts";

const PROVIDER = "sandbox-circle";

export interface SandboxCircleOptions {
  /** Where users burn for a settlement, and where a return is minted. */
  source: LegChain;
  /** Where a settlement is minted, and where a return is burned. Both chains' transmitters trust `operator`. */
  intermediate: LegChain;
  /** The sandbox operator: Circle's attester (it signs messages) and its forwarder (it relays them). */
  operator: PrivateKeyAccount;
  /** How long after the burn's block Circle attests (and forwards), by `clock`. */
  attestationDelayMs: number;
  /**
   * How long the slow test values keep Circle from attesting (`.72`, its fee above the burn's maxFee;
   * `.73`, a late attestation): longer than the order's leg deadline, so the order shows it.
   */
  slowLegMs: number;
  /** Mock mode only: whether the principal's cents choose a failure (magic-amounts.ts). Off, none do. */
  testAmounts: boolean;
  clock: Clock;
  timeoutMs?: number;
}

/**
 * Circle for the sandbox chains: Iris and the Forwarding Service in one. A burn is pending until
 * `attestationDelayMs` after its block's timestamp has passed by the injected clock; then Iris's
 * answer is complete with Circle's message (MessageV2 with a BurnMessageV2 body, the nonce and
 * `feeExecuted` filled in) and the attester's signature over it, and, for a burn that asked for
 * forwarding, the forwarder relays it with the intermediate chain's `receiveMessage`, which checks
 * the signature and mints once per nonce. So a second forward, or the service's own relay of the
 * same message, can never mint twice. Like Iris, it reports a burn it cannot see (not mined,
 * reverted, no DepositForBurn) as pending. Burns go both ways: a settlement's from the source chain
 * to the intermediate, a return's back. On a settlement's burn, the cents of the principal choose a
 * failure (magic-amounts.ts): `.71` the forward fails, `.72` the fee is above maxFee (delayReason
 * `insufficient_fee`) and `.73` the attestation is late, both for `slowLegMs`.
 */
export function sandboxCircle(options: SandboxCircleOptions): AttestationProvider {
  const { clock, operator } = options;
  const timeoutMs = options.timeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS;
  const ends = [options.source, options.intermediate].map((chain) => ({
    chain,
    domain: requiredDomain(chain),
    messenger: requiredContract(chain, "tokenMessenger").toLowerCase() as Hex,
    transmitter: requiredContract(chain, "messageTransmitter"),
    wallet: operatorWallet(chain, operator),
  }));
  type End = (typeof ends)[number];
  const [source] = ends as [End, End];

  const isReceived = async (end: End, nonce: Hex) =>
    (await end.chain.client.readContract({
      address: end.transmitter,
      abi: messageTransmitterV2Abi,
      functionName: "usedNonces",
      args: [nonce],
    })) !== 0n;

  async function receivingTxHashOf(end: End, nonce: Hex): Promise<Hex | undefined> {
    const [log] = await end.chain.client.getLogs({
      address: end.transmitter,
      event: getAbiItem({ abi: messageTransmitterV2Abi, name: "MessageReceived" }),
      args: { nonce },
      fromBlock: 0n,
    });
    return log?.transactionHash ?? undefined;
  }

  async function attest(from: End, burnTxHash: Hex): Promise<Attestation> {
    const receipt = await receiptOrUndefined(from.chain.client, burnTxHash);
    if (receipt?.status !== "success") return { status: "pending" };
    const burn = parseEventLogs({
      abi: tokenMessengerV2Abi,
      eventName: "DepositForBurn",
      logs: receipt.logs,
    }).find((log) => log.address.toLowerCase() === from.messenger);
    if (!burn) return { status: "pending" };
    const {
      amount,
      maxFee,
      depositor,
      burnToken,
      destinationDomain,
      destinationTokenMessenger,
      destinationCaller,
      minFinalityThreshold,
      hookData,
      mintRecipient,
    } = burn.args;
    // Test amounts choose a settlement's failures; a return's burn behaves normally.
    const outcome =
      options.testAmounts && from === source ? sandboxOutcomeOf(principalOfBurn(amount, maxFee)) : "normal";
    const slow = outcome === "fee-above-max" || outcome === "late-attestation";
    const block = await from.chain.client.getBlock({ blockNumber: receipt.blockNumber });
    const attestsAt =
      Number(block.timestamp) * 1000 + (slow ? options.slowLegMs : options.attestationDelayMs);
    if (clock.now().getTime() < attestsAt) {
      return outcome === "fee-above-max"
        ? { status: "pending", delayReason: "insufficient_fee" }
        : { status: "pending" };
    }

    const eventNonce = sandboxNonce(from.domain, burnTxHash, burn.logIndex);
    const feeExecuted = sandboxForwardingFee(amount, maxFee, minFinalityThreshold);
    const message = encodeCctpBurnMessage({
      sourceDomain: from.domain,
      destinationDomain,
      nonce: eventNonce,
      sender: padHex(from.messenger, { size: 32 }),
      recipient: destinationTokenMessenger,
      destinationCaller,
      minFinalityThreshold,
      finalityThresholdExecuted: minFinalityThreshold,
      burnToken: padHex(burnToken, { size: 32 }),
      mintRecipient,
      amount,
      messageSender: padHex(depositor, { size: 32 }),
      maxFee,
      feeExecuted,
      expirationBlock: 0n,
      hookData,
    });
    // Circle's attester signs the message's hash itself, with no prefix.
    const attestation = await operator.sign({ hash: keccak256(message) });
    const attested = { status: "complete", eventNonce, message, attestation, feeExecuted } as const;

    const to = ends.find((end) => end !== from && end.domain === destinationDomain);
    const asksForwarding = to !== undefined && destinationCaller === zeroHash && hookAsksForwarding(hookData);
    // Attested, but nobody forwards it: someone must relay it with the attestation, as on the real chain.
    if (!asksForwarding) return attested;
    // A recipient that is no EVM address cannot be minted to: Circle's forward fails for good.
    if (!evmAddressOf(mintRecipient) || outcome === "forward-fails") {
      const relayed = await receivingTxHashOf(to, eventNonce);
      return { ...attested, forwardState: "failed", ...(relayed ? { forwardTxHash: relayed } : {}) };
    }

    await sendUnlessDone({
      provider: PROVIDER,
      what: `forward the mint of burn ${burnTxHash}`,
      chain: to.chain,
      wallet: to.wallet,
      done: () => isReceived(to, eventNonce),
      send: (forwarder) =>
        forwarder.writeContract({
          address: to.transmitter,
          abi: messageTransmitterV2Abi,
          functionName: "receiveMessage",
          args: [message, attestation],
        }),
    });
    const forwardTxHash = await receivingTxHashOf(to, eventNonce);
    return {
      ...attested,
      ...(forwardTxHash ? { forwardTxHash } : {}),
      forwardState: forwardTxHash ? "confirmed" : "pending",
    };
  }

  return {
    async attestation({ sourceDomain, burnTxHash }) {
      const from = ends.find((end) => end.domain === sourceDomain);
      if (!from) {
        throw new RangeError(
          `the sandbox burns on domains ${ends.map((end) => end.domain).join(" and ")}, not ${sourceDomain}`,
        );
      }
      try {
        return await withinDeadline(PROVIDER, timeoutMs, () => attest(from, burnTxHash));
      } catch (error) {
        throw chainUnavailable(PROVIDER, error);
      }
    },
  };
}

/**
 * CCTP v2 nonces are 32-byte values Circle assigns; the sandbox derives one from the burn itself,
 * so asking twice reports the same.
 */
function sandboxNonce(sourceDomain: number, burnTxHash: Hex, logIndex: number): Hex {
  return keccak256(
    encodeAbiParameters(
      [{ type: "uint32" }, { type: "bytes32" }, { type: "uint256" }],
      [sourceDomain, burnTxHash, BigInt(logIndex)],
    ),
  );
}

/** The EVM address in a CCTP bytes32 recipient, or undefined when its upper 12 bytes are not zero. */
function evmAddressOf(recipient: Hex): Hex | undefined {
  if (BigInt(sliceHex(recipient, 0, 12)) !== 0n) return undefined;
  const address = sliceHex(recipient, 12, 32);
  return BigInt(address) === 0n ? undefined : address;
}
