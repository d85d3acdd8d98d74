import {
  encodeAbiParameters,
  getAbiItem,
  type Hex,
  keccak256,
  type PrivateKeyAccount,
  padHex,
  parseEventLogs,
  sliceHex,
  zeroHash,
} from "viem";
import { messageTransmitterV2Abi, tokenMessengerV2Abi } from "../../lib/kernel/chain/abis";
import { encodeCctpBurnMessage } from "../../lib/kernel/chain/cctp-message";
import { asksForwarding } from "../../lib/kernel/chain/forwarding";
import type { LegChain } from "../../lib/kernel/chain/leg-chain";
import { receiptOrUndefined } from "../../lib/kernel/chain/receipt";
import { operatorWallet, sendUnlessDone } from "../../lib/sandbox/operator";
import { principalOfBurn, type SandboxOutcome, sandboxOutcomeOf } from "../test-amounts";
import { feeExecutedOf, type LocalCircleFees } from "./fees";

/** One CCTP chain the local Circle watches: where burns leave and where their messages are received. */
export interface CircleEnd {
  chain: LegChain;
  domain: number;
  messenger: Hex;
  transmitter: Hex;
}

export interface AttesterOptions {
  ends: CircleEnd[];
  /** Circle's attester: the transmitters trust its signature. */
  attester: PrivateKeyAccount;
  /** The Forwarding Service's sender: it pays the gas of forwarded mints on every chain. */
  forwarder: PrivateKeyAccount;
  fees: LocalCircleFees;
  /** How long after the burn's block Circle attests (and forwards). */
  attestationDelayMs: number;
  /** How long `.72` (fee above maxFee) and `.73` (late attestation) hold the attestation up. */
  slowLegMs: number;
  /** Whether the cents of a burn's principal choose a failure (dev/test-amounts.ts). */
  testAmounts: boolean;
  /** The domain settlements are burned to: test amounts apply to burns toward it only (not returns). */
  settlementDomain?: number;
  now: () => Date;
}

/** A DepositForBurn's fields as viem decodes them. */
interface DepositForBurnArgs {
  burnToken: Hex;
  amount: bigint;
  depositor: Hex;
  mintRecipient: Hex;
  destinationDomain: number;
  destinationTokenMessenger: Hex;
  destinationCaller: Hex;
  maxFee: bigint;
  minFinalityThreshold: number;
  hookData: Hex;
}

/** One message as Iris's `GET /v2/messages` lists it (developers.circle.com/api-reference/cctp/all/get-messages-v2). */
export interface IrisMessage {
  message: Hex;
  eventNonce: Hex;
  attestation: string;
  decodedMessage: Record<string, unknown>;
  cctpVersion: 2;
  status: "pending_confirmations" | "complete";
  delayReason: "insufficient_fee" | null;
  forwardState?: "PENDING" | "COMPLETE" | "FAILED";
  forwardTxHash?: Hex | "";
}

/**
 * Circle's attestation service and Forwarding Service for the local chains, answering as Iris does.
 * Every DepositForBurn of the configured messengers in a transaction is one message, by ascending
 * log index; it is `pending_confirmations` until `attestationDelayMs` after its block's time by
 * `now`, then `complete` with Circle's message (MessageV2 with a BurnMessageV2 body, a nonce derived
 * from the burn, `feeExecuted` filled in) and the attester's signature over it. A burn that asked for
 * forwarding (no destination caller, Circle's hook header) is then relayed by the forwarder with the
 * destination's `receiveMessage`, which checks the signature and mints once per nonce, so neither a
 * second forward nor anyone's relay of the same message mints twice. Test amounts on settlement
 * burns: `.71` the forward fails, `.72` the fee is above maxFee (`insufficient_fee`) and `.73` the
 * attestation is late, both for `slowLegMs`, `.82` the forward fails and the Fast attestation has
 * already expired (until re-attested).
 */
export class Attester {
  /** Nonces Circle has handed out, so a re-attestation request finds its burn. */
  readonly #burns = new Map<string, { end: CircleEnd; txHash: Hex; logIndex: number }>();
  /** Nonces Circle was asked to sign again: their messages no longer expire. */
  readonly #reattested = new Set<string>();
  /** Domains Circle's Forwarding Service fails to mint on (a chain's outage; tests). */
  readonly #failingForwards = new Set<number>();

  /** Circle's forwards to `domain` fail (Iris `forwardState` FAILED) until told otherwise. */
  failForwardsTo(domain: number, failing = true): void {
    if (failing) this.#failingForwards.add(domain);
    else this.#failingForwards.delete(domain);
  }

  constructor(private readonly options: AttesterOptions) {}

  endOf(domain: number): CircleEnd | undefined {
    return this.options.ends.find((end) => end.domain === domain);
  }

  /** Iris's messages for a burn transaction on `from`, in log order; none while it is unseen. */
  async messages(from: CircleEnd, txHash: Hex): Promise<IrisMessage[]> {
    const receipt = await receiptOrUndefined(from.chain.client, txHash);
    if (receipt?.status !== "success") return [];
    const burns = parseEventLogs({
      abi: tokenMessengerV2Abi,
      eventName: "DepositForBurn",
      logs: receipt.logs,
    }).filter((log) => log.address.toLowerCase() === from.messenger.toLowerCase());
    if (burns.length === 0) return [];
    const block = await from.chain.client.getBlock({ blockNumber: receipt.blockNumber });
    const messages: IrisMessage[] = [];
    for (const burn of burns) messages.push(await this.#message(from, txHash, burn, block.timestamp));
    return messages;
  }

  /** `POST /v2/reattest/{nonce}`: false when Circle handed out no such nonce. */
  reattest(nonce: Hex): boolean {
    const key = nonce.toLowerCase();
    if (!this.#burns.has(key)) return false;
    this.#reattested.add(key);
    return true;
  }

  async #message(
    from: CircleEnd,
    txHash: Hex,
    burn: { args: DepositForBurnArgs; logIndex: number },
    blockTime: bigint,
  ): Promise<IrisMessage> {
    const { amount, maxFee, depositor, burnToken, destinationDomain, destinationTokenMessenger } = burn.args;
    const { destinationCaller, minFinalityThreshold, hookData, mintRecipient } = burn.args;
    const nonce = nonceOf(from.domain, txHash, burn.logIndex);
    this.#burns.set(nonce, { end: from, txHash, logIndex: burn.logIndex });
    const outcome = this.#outcomeOf(burn.args);
    const slow = outcome === "fee-above-max" || outcome === "late-attestation";
    const attestsAt =
      Number(blockTime) * 1000 + (slow ? this.options.slowLegMs : this.options.attestationDelayMs);
    const to = this.endOf(destinationDomain);
    const forwards = to !== undefined && destinationCaller === zeroHash && asksForwarding(hookData);
    const reattested = this.#reattested.has(nonce);
    const feeExecuted = feeExecutedOf(this.options.fees, { amount, maxFee, minFinalityThreshold }, forwards);
    const decodedBody = {
      burnToken: padHex(burnToken, { size: 32 }),
      mintRecipient,
      amount: amount.toString(),
      messageSender: padHex(depositor, { size: 32 }),
      maxFee: maxFee.toString(),
      feeExecuted: feeExecuted.toString(),
      // `.82`: Circle's Fast attestation carries an expiration block already past, until re-attested.
      expirationBlock: outcome === "attestation-expired" && !reattested ? "1" : "0",
      hookData,
    };
    const decoded = {
      sourceDomain: String(from.domain),
      destinationDomain: String(destinationDomain),
      nonce,
      sender: padHex(from.messenger, { size: 32 }),
      recipient: destinationTokenMessenger,
      destinationCaller,
      minFinalityThreshold: String(minFinalityThreshold),
      finalityThresholdExecuted: String(reattested ? 2000 : minFinalityThreshold),
      decodedMessageBody: decodedBody,
    };
    if (this.options.now().getTime() < attestsAt) {
      return {
        message: "0x",
        eventNonce: nonce,
        attestation: "PENDING",
        decodedMessage: decoded,
        cctpVersion: 2,
        status: "pending_confirmations",
        delayReason: outcome === "fee-above-max" ? "insufficient_fee" : null,
      };
    }

    const message = encodeCctpBurnMessage({
      sourceDomain: from.domain,
      destinationDomain,
      nonce,
      sender: padHex(from.messenger, { size: 32 }),
      recipient: destinationTokenMessenger,
      destinationCaller,
      minFinalityThreshold,
      finalityThresholdExecuted: reattested ? 2000 : minFinalityThreshold,
      burnToken: padHex(burnToken, { size: 32 }),
      mintRecipient,
      amount,
      messageSender: padHex(depositor, { size: 32 }),
      maxFee,
      feeExecuted,
      expirationBlock: BigInt(decodedBody.expirationBlock),
      hookData,
    });
    // Circle's attester signs the message's hash itself, with no prefix.
    const attestation = await this.options.attester.sign({ hash: keccak256(message) });
    const attested: IrisMessage = {
      message,
      eventNonce: nonce,
      attestation,
      decodedMessage: { ...decoded, messageBody: sliceHex(message, 148) },
      cctpVersion: 2,
      status: "complete",
      delayReason: null,
    };
    // Attested, but nobody forwards it: someone must relay it with the attestation, as on a real chain.
    if (!forwards || !to) return attested;
    const failing =
      outcome === "forward-fails" ||
      outcome === "attestation-expired" ||
      this.#failingForwards.has(destinationDomain);
    if (!evmAddressOf(mintRecipient) || failing) {
      // A recipient that is no EVM address cannot be minted to: Circle's forward fails for good, and
      // Circle names no transaction of its own (whoever relays the message instead is not Circle).
      return { ...attested, forwardState: "FAILED", forwardTxHash: "" };
    }
    await sendUnlessDone({
      provider: "local-circle",
      what: `forward the mint of burn ${txHash}`,
      chain: to.chain,
      wallet: operatorWallet(to.chain, this.options.forwarder),
      done: () => isReceived(to, nonce),
      send: (wallet) =>
        wallet.writeContract({
          address: to.transmitter,
          abi: messageTransmitterV2Abi,
          functionName: "receiveMessage",
          args: [message, attestation],
        }),
    });
    const forwardTxHash = await receivingTxHashOf(to, nonce);
    return forwardTxHash
      ? { ...attested, forwardState: "COMPLETE", forwardTxHash }
      : { ...attested, forwardState: "PENDING", forwardTxHash: "" };
  }

  #outcomeOf(burn: { amount: bigint; maxFee: bigint; destinationDomain: number }): SandboxOutcome {
    const { testAmounts, settlementDomain } = this.options;
    if (!testAmounts || burn.destinationDomain !== settlementDomain) return "normal";
    return sandboxOutcomeOf(principalOfBurn(burn.amount, burn.maxFee));
  }
}

/**
 * CCTP v2 nonces are 32-byte values Circle assigns; the local Circle derives one from the burn
 * itself (domain, transaction, log index), so asking twice reports the same.
 */
function nonceOf(sourceDomain: number, burnTxHash: Hex, logIndex: number): Hex {
  return keccak256(
    encodeAbiParameters(
      [{ type: "uint32" }, { type: "bytes32" }, { type: "uint256" }],
      [sourceDomain, burnTxHash, BigInt(logIndex)],
    ),
  );
}

async function isReceived(end: CircleEnd, nonce: Hex): Promise<boolean> {
  const used = await end.chain.client.readContract({
    address: end.transmitter,
    abi: messageTransmitterV2Abi,
    functionName: "usedNonces",
    args: [nonce],
  });
  return used !== 0n;
}

async function receivingTxHashOf(end: CircleEnd, nonce: Hex): Promise<Hex | undefined> {
  const [log] = await end.chain.client.getLogs({
    address: end.transmitter,
    event: getAbiItem({ abi: messageTransmitterV2Abi, name: "MessageReceived" }),
    args: { nonce },
    fromBlock: 0n,
  });
  return log?.transactionHash ?? undefined;
}

/** The EVM address in a CCTP bytes32 recipient, or undefined when its upper 12 bytes are not zero. */
function evmAddressOf(recipient: Hex): Hex | undefined {
  if (BigInt(sliceHex(recipient, 0, 12)) !== 0n) return undefined;
  const address = sliceHex(recipient, 12, 32);
  return BigInt(address) === 0n ? undefined : address;
}
