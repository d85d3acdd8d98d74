import { getAbiItem, type Hex, type PublicClient, parseEventLogs } from "viem";
import { messageTransmitterV2Abi } from "../../kernel/chain/abis";
import { decodeCctpBurnBody } from "../../kernel/chain/cctp-message";
import { mintOfMessage } from "../../kernel/chain/cctp-mint";
import { chainUnavailable } from "../../kernel/chain/failure";
import { addressToBytes32 } from "../../kernel/chain/forwarding";
import { receiptOrUndefined } from "../../kernel/chain/receipt";
import { withinDeadline } from "../../kernel/deadline";
import { DEFAULT_PROVIDER_TIMEOUT_MS } from "../../kernel/provider-failure";
import type { ForwardedMint, ForwardedMintObserver, ForwardedMintQuery } from "../../settlement";

const PROVIDER = "cctp-mint";

/**
 * The widest `eth_getLogs` block range asked at once: several RPC providers refuse more (some cap
 * at 2,000 or 10,000 blocks), and a mint is normally within minutes of its burn, in the first range.
 */
const DEFAULT_LOG_RANGE_BLOCKS = 2_000n;

/**
 * How far before the burn's time the search starts: two chains' block times need not agree to the
 * second (a sequencer's clock, a local chain that runs ahead), and a few minutes more of blocks cost
 * one log range at most.
 */
const CLOCK_SKEW_MS = 5 * 60_000;

export interface ForwardedMintObserverOptions {
  /** The chain minted on (the intermediate chain; the source chain for returns). */
  client: PublicClient;
  /** Its MessageTransmitterV2, whose `usedNonces` and MessageReceived name each message's nonce. */
  messageTransmitter: Hex;
  /** Its TokenMessengerV2, which emits MintAndWithdraw (Circle's, or the sandbox's). */
  tokenMessenger: Hex;
  /** Its USDC: a MintAndWithdraw of another token completes no burn. */
  usdc: Hex;
  /** The widest block range one log search asks for (DEFAULT_LOG_RANGE_BLOCKS). */
  logRangeBlocks?: bigint;
  timeoutMs?: number;
}

/**
 * Finds the mint of one burn by its message nonce, never by its amount. The chain says first whether
 * the nonce was received at all (`usedNonces`: one read, what every poll of a burn not yet minted
 * costs); once it was, whoever relayed it (Circle's Forwarding Service, the service itself, anyone
 * else with the attestation), its MessageReceived is found from the first block at or after the
 * burn's time onward, in ranges RPC providers accept, and then, in the same successful transaction,
 * the messenger's MintAndWithdraw for that very message (mintOfMessage: the one between it and the
 * previous MessageReceived, to the recipient, of USDC, `amount + feeCollected` the message's amount). The transaction Circle reported is read
 * first. The mint names who relayed it (MessageReceived's `caller`).
 */
export function forwardedMintObserver(options: ForwardedMintObserverOptions): ForwardedMintObserver {
  const { client } = options;
  const transmitter = options.messageTransmitter.toLowerCase();
  const range = options.logRangeBlocks ?? DEFAULT_LOG_RANGE_BLOCKS;
  if (range < 1n) throw new RangeError(`logRangeBlocks must be positive, got ${range}`);
  const timeoutMs = options.timeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS;
  const firstBlocks = new Map<number, bigint>();

  async function inTransaction(txHash: Hex, query: ForwardedMintQuery): Promise<ForwardedMint | undefined> {
    const receipt = await receiptOrUndefined(client, txHash);
    if (receipt?.status !== "success") return undefined;
    const received = parseEventLogs({
      abi: messageTransmitterV2Abi,
      eventName: "MessageReceived",
      logs: receipt.logs,
    }).find(
      (log) =>
        log.address.toLowerCase() === transmitter &&
        log.args.nonce.toLowerCase() === query.eventNonce.toLowerCase(),
    );
    const body = received && decodeCctpBurnBody(received.args.messageBody);
    if (!received || !body || body.mintRecipient.toLowerCase() !== addressToBytes32(query.mintRecipient)) {
      return undefined;
    }
    const mint = mintOfMessage(receipt.logs, received, {
      transmitter: options.messageTransmitter,
      messenger: options.tokenMessenger,
      usdc: options.usdc,
      recipient: query.mintRecipient,
      burned: body.amount,
    });
    return (
      mint && {
        amount: mint.amount,
        feeCollected: mint.feeCollected,
        txHash,
        blockNumber: receipt.blockNumber,
        caller: received.args.caller,
      }
    );
  }

  /** The first block at or after `at` (a binary search over block times), kept per second asked. */
  async function firstBlockAtOrAfter(at: Date | undefined, head: bigint): Promise<bigint> {
    if (at === undefined) return 0n;
    const seconds = Math.floor((at.getTime() - CLOCK_SKEW_MS) / 1000);
    const known = firstBlocks.get(seconds);
    if (known !== undefined) return known;
    // Nothing at or after that time yet: the search starts past the head.
    if ((await client.getBlock({ blockNumber: head })).timestamp < BigInt(seconds)) return head + 1n;
    let [low, high] = [0n, head];
    while (low < high) {
      const middle = (low + high) / 2n;
      const block = await client.getBlock({ blockNumber: middle });
      if (block.timestamp < BigInt(seconds)) low = middle + 1n;
      else high = middle;
    }
    if (firstBlocks.size > 1_000) firstBlocks.clear();
    firstBlocks.set(seconds, low);
    return low;
  }

  async function find(query: ForwardedMintQuery): Promise<ForwardedMint | undefined> {
    if (query.forwardTxHash) {
      const reported = await inTransaction(query.forwardTxHash, query);
      if (reported) return reported;
    }
    const used = await client.readContract({
      address: options.messageTransmitter,
      abi: messageTransmitterV2Abi,
      functionName: "usedNonces",
      args: [query.eventNonce],
    });
    if (used === 0n) return undefined;
    const head = await client.getBlockNumber();
    for (let from = await firstBlockAtOrAfter(query.after, head); from <= head; from += range) {
      const to = from + range - 1n < head ? from + range - 1n : head;
      const received = await client.getLogs({
        address: options.messageTransmitter,
        event: getAbiItem({ abi: messageTransmitterV2Abi, name: "MessageReceived" }),
        args: { nonce: query.eventNonce },
        fromBlock: from,
        toBlock: to,
      });
      // A nonce is received once: the first log that minted to the recipient is the mint.
      for (const log of received) {
        if (!log.transactionHash || log.transactionHash === query.forwardTxHash) continue;
        const mint = await inTransaction(log.transactionHash, query);
        if (mint) return mint;
      }
    }
    return undefined;
  }

  return {
    async forwardedMint(query) {
      try {
        return await withinDeadline(PROVIDER, timeoutMs, () => find(query));
      } catch (error) {
        throw chainUnavailable(PROVIDER, error);
      }
    },
  };
}
