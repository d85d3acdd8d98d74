import { getAbiItem, type Hex, type PublicClient, parseEventLogs } from "viem";
import { messageTransmitterV2Abi, tokenMessengerV2Abi } from "../../kernel/chain/abis";
import { decodeCctpBurnBody } from "../../kernel/chain/cctp-message";
import { chainUnavailable } from "../../kernel/chain/failure";
import { addressToBytes32 } from "../../kernel/chain/forwarding";
import { receiptOrUndefined } from "../../kernel/chain/receipt";
import { withinDeadline } from "../../kernel/deadline";
import { DEFAULT_PROVIDER_TIMEOUT_MS } from "../../kernel/provider-failure";
import type { ForwardedMint, ForwardedMintObserver, ForwardedMintQuery } from "../../settlement/leg-ports";

const PROVIDER = "cctp-mint";

/** How far back a search without `fromBlock` looks: a few hours on an L2, within RPC log limits. */
export const DEFAULT_MINT_LOOKBACK_BLOCKS = 10_000n;

export interface ForwardedMintObserverOptions {
  /** The intermediate chain. */
  client: PublicClient;
  /** Its MessageTransmitterV2, whose MessageReceived names each message's nonce. */
  messageTransmitter: Hex;
  /** Its TokenMessengerV2, which emits MintAndWithdraw (Circle's, or the sandbox's). */
  tokenMessenger: Hex;
  /** Its USDC: a MintAndWithdraw of another token completes no settlement burn. */
  usdc: Hex;
  lookbackBlocks?: bigint;
  timeoutMs?: number;
}

/**
 * Finds the mint of one burn by its message nonce, never by its amount: the MessageReceived of that
 * nonce (a nonce is received once, whoever relays it: Circle's Forwarding Service or the service
 * itself), then, in the same successful transaction, the messenger's MintAndWithdraw for that
 * message (logged before it, to the settlement account, of USDC, `amount + feeCollected` equal to the
 * message's amount). The transaction Circle reported is read first; the logs are searched otherwise.
 */
export function forwardedMintObserver(options: ForwardedMintObserverOptions): ForwardedMintObserver {
  const { client } = options;
  const transmitter = options.messageTransmitter.toLowerCase();
  const messenger = options.tokenMessenger.toLowerCase();
  const usdc = options.usdc.toLowerCase();
  const lookback = options.lookbackBlocks ?? DEFAULT_MINT_LOOKBACK_BLOCKS;
  const timeoutMs = options.timeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS;

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
    const recipient = query.mintRecipient.toLowerCase();
    const { amount } = body;
    const mint = parseEventLogs({
      abi: tokenMessengerV2Abi,
      eventName: "MintAndWithdraw",
      logs: receipt.logs,
    })
      .filter(
        (log) =>
          log.address.toLowerCase() === messenger &&
          log.logIndex < received.logIndex &&
          log.args.mintRecipient.toLowerCase() === recipient &&
          log.args.mintToken.toLowerCase() === usdc &&
          log.args.amount + log.args.feeCollected === amount,
      )
      .at(-1);
    return (
      mint && {
        amount: mint.args.amount,
        feeCollected: mint.args.feeCollected,
        txHash,
        blockNumber: receipt.blockNumber,
      }
    );
  }

  async function firstBlock(fromBlock: bigint | undefined): Promise<bigint> {
    if (fromBlock !== undefined) return fromBlock;
    const latest = await client.getBlockNumber();
    return latest > lookback ? latest - lookback : 0n;
  }

  async function find(query: ForwardedMintQuery): Promise<ForwardedMint | undefined> {
    if (query.forwardTxHash) {
      const reported = await inTransaction(query.forwardTxHash, query);
      if (reported) return reported;
    }
    const receipts = await client.getLogs({
      address: options.messageTransmitter,
      event: getAbiItem({ abi: messageTransmitterV2Abi, name: "MessageReceived" }),
      args: { nonce: query.eventNonce },
      fromBlock: await firstBlock(query.fromBlock),
    });
    // A pending log has no hash yet; a nonce is received once, so at most one of these minted.
    for (const log of receipts) {
      if (!log.transactionHash || log.transactionHash === query.forwardTxHash) continue;
      const mint = await inTransaction(log.transactionHash, query);
      if (mint) return mint;
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
