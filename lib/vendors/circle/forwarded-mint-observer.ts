import { getAbiItem, type Hex, type PublicClient, parseEventLogs } from "viem";
import { tokenMessengerV2Abi } from "../../kernel/chain/abis";
import { chainUnavailable } from "../../kernel/chain/failure";
import { receiptOrUndefined } from "../../kernel/chain/receipt";
import { withinDeadline } from "../../kernel/deadline";
import { DEFAULT_PROVIDER_TIMEOUT_MS } from "../../kernel/provider-failure";
import type { ForwardedMint, ForwardedMintObserver, ForwardedMintQuery } from "../../settlement/leg-ports";
import { sandboxForwarderAbi } from "../sandbox/leg-abis";

const PROVIDER = "cctp-mint";

/** How far back a search without `fromBlock` looks: a few hours on an L2, within RPC log limits. */
export const DEFAULT_MINT_LOOKBACK_BLOCKS = 10_000n;

export interface ForwardedMintObserverOptions {
  /** The intermediate chain. */
  client: PublicClient;
  /** Its TokenMessengerV2, which emits MintAndWithdraw (Circle's, or the sandbox's). */
  tokenMessenger: Hex;
  /** Its USDC: a MintAndWithdraw of another token completes no settlement burn. */
  usdc: Hex;
  /**
   * Sandbox only: the sandbox messenger also logs MintForwarded(burn hash) beside each mint, so a mint
   * is found by the burn alone. Circle's messenger has no such event; leave it off live.
   */
  matchBurnHash?: boolean;
  lookbackBlocks?: bigint;
  timeoutMs?: number;
}

/**
 * Finds the MintAndWithdraw that completed a burn, in the order of certainty: in the transaction Circle
 * reported (`forwardTxHash`), by the burn hash where the chain logs it (the sandbox), else the earliest
 * mint of exactly `expectedAmount` USDC to the recipient. The same code reads Circle's
 * TokenMessengerV2 and the sandbox's, which emits the real event. A reverted transaction minted
 * nothing, so it is never the answer.
 */
export function forwardedMintObserver(options: ForwardedMintObserverOptions): ForwardedMintObserver {
  const { client } = options;
  const messenger = options.tokenMessenger.toLowerCase();
  const usdc = options.usdc.toLowerCase();
  const lookback = options.lookbackBlocks ?? DEFAULT_MINT_LOOKBACK_BLOCKS;
  const timeoutMs = options.timeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS;

  const isOurs = (log: { address: Hex; args: { mintRecipient: Hex; mintToken: Hex } }, recipient: string) =>
    log.address.toLowerCase() === messenger &&
    log.args.mintRecipient.toLowerCase() === recipient &&
    log.args.mintToken.toLowerCase() === usdc;

  async function inTransaction(txHash: Hex, recipient: string): Promise<ForwardedMint | undefined> {
    const receipt = await receiptOrUndefined(client, txHash);
    if (receipt?.status !== "success") return undefined;
    const mint = parseEventLogs({
      abi: tokenMessengerV2Abi,
      eventName: "MintAndWithdraw",
      logs: receipt.logs,
    }).find((log) => isOurs(log, recipient));
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

  async function byBurnHash(
    query: ForwardedMintQuery,
    recipient: string,
  ): Promise<ForwardedMint | undefined> {
    const links = await client.getLogs({
      address: options.tokenMessenger,
      event: getAbiItem({ abi: sandboxForwarderAbi, name: "MintForwarded" }),
      args: { sourceBurnTxHash: query.burnTxHash },
      fromBlock: await firstBlock(query.fromBlock),
    });
    for (const link of links) {
      const mint = link.transactionHash ? await inTransaction(link.transactionHash, recipient) : undefined;
      if (mint) return mint;
    }
    return undefined;
  }

  async function byAmount(query: ForwardedMintQuery, expected: bigint, recipient: string) {
    const mints = await client.getLogs({
      address: options.tokenMessenger,
      event: getAbiItem({ abi: tokenMessengerV2Abi, name: "MintAndWithdraw" }),
      args: { mintRecipient: query.mintRecipient, mintToken: options.usdc },
      fromBlock: await firstBlock(query.fromBlock),
    });
    // Logs come in chain order, so the first match is the earliest; a pending log has no hash yet.
    for (const log of mints) {
      if (log.args.amount !== expected || !log.transactionHash) continue;
      const mint = await inTransaction(log.transactionHash, recipient);
      if (mint) return mint;
    }
    return undefined;
  }

  async function find(query: ForwardedMintQuery): Promise<ForwardedMint | undefined> {
    const recipient = query.mintRecipient.toLowerCase();
    if (query.forwardTxHash) return inTransaction(query.forwardTxHash, recipient);
    if (options.matchBurnHash) {
      const mint = await byBurnHash(query, recipient);
      if (mint) return mint;
    }
    if (query.expectedAmount !== undefined) return byAmount(query, query.expectedAmount, recipient);
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
