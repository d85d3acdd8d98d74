import { eq } from "drizzle-orm";
import { getAbiItem, type Hex, parseEventLogs } from "viem";
import { settlementMintScans, settlementMints } from "../../../schema";
import { messageTransmitterV2Abi, tokenMessengerV2Abi } from "../../kernel/chain/abis";
import { decodeCctpBurnBody } from "../../kernel/chain/cctp-message";
import { addressToBytes32 } from "../../kernel/chain/forwarding";
import type { ConfiguredChain } from "../../kernel/chain/registry";
import { newId } from "../../kernel/ids";
import type { SettlementServices } from "../context";

/** The widest block range one log search asks for (RPC providers cap it; 2,000 is accepted widely). */
const SCAN_RANGE_BLOCKS = 2_000n;
/** Ranges one sweep reads at most: 20,000 blocks, more than any intermediate chain makes in five minutes. */
const SCAN_RANGES_PER_SWEEP = 10;

/**
 * Reads the intermediate chain's MessageReceived logs from where the last search stopped to the
 * last block with the chain's confirmations, and records every CCTP mint to the settlement account:
 * its nonce, who burned it and where, and what the messenger's MintAndWithdraw in the same
 * transaction gave the account. Each mint once (its chain and nonce are unique), whoever relayed
 * it. Returns how many new mints it recorded.
 */
export async function scanMints(ctx: SettlementServices): Promise<number> {
  const chain = ctx.chains.byRole("intermediate");
  const account = ctx.settlement.accountAddress;
  const { messageTransmitter, tokenMessenger, usdc } = chain?.contracts ?? {};
  if (!chain || !account || !messageTransmitter || !tokenMessenger || !usdc) return 0;
  const head = await chain.client.getBlockNumber();
  const lastConfirmed = head - BigInt(Math.max(1, chain.confirmations)) + 1n;
  const [cursor] = await ctx.db
    .select()
    .from(settlementMintScans)
    .where(eq(settlementMintScans.chainId, chain.chainId));
  let from = cursor?.nextBlock ?? ctx.config.SETTLEMENT_MINT_SCAN_FROM_BLOCK ?? lastConfirmed + 1n;
  // Only a local chain goes back: it was reset, and its mints are read again from its start.
  if (from > head + 1n) from = 0n;
  let found = 0;
  for (let range = 0; range < SCAN_RANGES_PER_SWEEP && from <= lastConfirmed; range++) {
    const to = from + SCAN_RANGE_BLOCKS - 1n < lastConfirmed ? from + SCAN_RANGE_BLOCKS - 1n : lastConfirmed;
    const logs = await chain.client.getLogs({
      address: messageTransmitter,
      event: getAbiItem({ abi: messageTransmitterV2Abi, name: "MessageReceived" }),
      fromBlock: from,
      toBlock: to,
    });
    for (const log of logs) {
      const body = decodeCctpBurnBody(log.args.messageBody ?? "0x");
      if (!body || body.mintRecipient.toLowerCase() !== addressToBytes32(account)) continue;
      const mint = await mintOf(chain, { tokenMessenger, usdc, account }, log, body.amount);
      if (!mint || log.args.nonce === undefined || log.args.sourceDomain === undefined) continue;
      const now = ctx.clock.now();
      const inserted = await ctx.db
        .insert(settlementMints)
        .values({
          id: newId("mnt", ctx.clock),
          chainId: chain.chainId,
          nonce: log.args.nonce.toLowerCase(),
          sourceDomain: log.args.sourceDomain,
          depositor: `0x${body.messageSender.slice(-40)}`.toLowerCase(),
          hookData: body.hookData.toLowerCase(),
          amount: mint.amount,
          feeCollected: mint.feeCollected,
          txHash: log.transactionHash.toLowerCase(),
          logIndex: log.logIndex,
          blockNumber: log.blockNumber,
          mintedAt: mint.mintedAt,
          status: "found",
          foundAt: now,
          updatedAt: now,
        })
        .onConflictDoNothing()
        .returning({ id: settlementMints.id });
      found += inserted.length;
    }
    from = to + 1n;
    await ctx.db
      .insert(settlementMintScans)
      .values({ chainId: chain.chainId, nextBlock: from, updatedAt: ctx.clock.now() })
      .onConflictDoUpdate({
        target: settlementMintScans.chainId,
        set: { nextBlock: from, updatedAt: ctx.clock.now() },
      });
  }
  return found;
}

/**
 * What a received message minted to the account: the messenger's MintAndWithdraw of USDC logged
 * before the MessageReceived in the same successful transaction, of the burned amount with the fee
 * (what the observer of an order's mint reads too).
 */
async function mintOf(
  chain: ConfiguredChain,
  contracts: { tokenMessenger: Hex; usdc: Hex; account: Hex },
  received: { transactionHash: Hex; logIndex: number },
  burned: bigint,
): Promise<{ amount: bigint; feeCollected: bigint; mintedAt: Date } | undefined> {
  const receipt = await chain.client.getTransactionReceipt({ hash: received.transactionHash });
  if (receipt.status !== "success") return undefined;
  const mint = parseEventLogs({ abi: tokenMessengerV2Abi, eventName: "MintAndWithdraw", logs: receipt.logs })
    .filter(
      (log) =>
        log.address.toLowerCase() === contracts.tokenMessenger.toLowerCase() &&
        log.logIndex < received.logIndex &&
        log.args.amount + log.args.feeCollected === burned &&
        log.args.mintRecipient.toLowerCase() === contracts.account.toLowerCase() &&
        log.args.mintToken.toLowerCase() === contracts.usdc.toLowerCase(),
    )
    .at(-1);
  if (!mint) return undefined;
  const block = await chain.client.getBlock({ blockNumber: receipt.blockNumber });
  return {
    amount: mint.args.amount,
    feeCollected: mint.args.feeCollected,
    mintedAt: new Date(Number(block.timestamp) * 1000),
  };
}
