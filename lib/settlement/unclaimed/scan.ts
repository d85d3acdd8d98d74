import { eq } from "drizzle-orm";
import { getAbiItem } from "viem";
import { settlementMintScans, settlementMints } from "../../../schema";
import { messageTransmitterV2Abi, tokenMessengerV2Abi } from "../../kernel/chain/abis";
import { decodeCctpBurnBody } from "../../kernel/chain/cctp-message";
import { mintOfMessage } from "../../kernel/chain/cctp-mint";
import { addressToBytes32 } from "../../kernel/chain/forwarding";
import { newId } from "../../kernel/ids";
import type { SettlementServices } from "../context";

/** The widest block range one log search asks for (RPC providers cap it; 2,000 is accepted widely). */
const SCAN_RANGE_BLOCKS = 2_000n;
/** Ranges one sweep reads at most: 20,000 blocks, more than any intermediate chain makes in five minutes. */
const SCAN_RANGES_PER_SWEEP = 10;

/**
 * Reads the intermediate chain's MessageReceived logs from where the last search stopped to the
 * last block with the chain's confirmations, and records every CCTP mint to the settlement account:
 * its nonce, who burned it and where, and what the messenger's MintAndWithdraw for that very message
 * gave the account (mintOfMessage). A message counts only when its sender is the TokenMessenger the
 * messenger here accepts for its domain (`remoteTokenMessengers`): a generic CCTP message whose body
 * only looks like a burn mints nothing and is no mint. Each mint once (its chain and nonce are
 * unique), whoever relayed it. Returns how many new mints it recorded.
 */
export async function scanMints(ctx: SettlementServices): Promise<number> {
  const chain = ctx.chains.byRole("intermediate");
  // A mint to any account of the pool is the service's.
  const recipients = new Map(
    ctx.settlement.accounts.map((account) => [addressToBytes32(account.address), account.address] as const),
  );
  const { messageTransmitter, tokenMessenger, usdc } = chain?.contracts ?? {};
  if (!chain || recipients.size === 0 || !messageTransmitter || !tokenMessenger || !usdc) return 0;
  const head = await chain.client.getBlockNumber();
  const lastConfirmed = head - BigInt(Math.max(1, chain.confirmations)) + 1n;
  const [cursor] = await ctx.db
    .select()
    .from(settlementMintScans)
    .where(eq(settlementMintScans.chainId, chain.chainId));
  let from = cursor?.nextBlock ?? ctx.config.SETTLEMENT_MINT_SCAN_FROM_BLOCK ?? lastConfirmed + 1n;
  if (!cursor) await moveCursor(ctx, chain.chainId, from);
  if (from > lastConfirmed + 1n) {
    // A node behind the last search (a lagging RPC) is waited for; only a local chain goes back,
    // because it was reset, and its mints are read again from its start.
    if (ctx.chains.profile !== "local" || from <= head + 1n) return 0;
    from = 0n;
    await moveCursor(ctx, chain.chainId, from);
  }
  const contracts = { transmitter: messageTransmitter, messenger: tokenMessenger, usdc };
  const senders = new Map<number, string>();
  const senderOf = async (domain: number) => {
    const known = senders.get(domain);
    if (known !== undefined) return known;
    const sender = await chain.client.readContract({
      address: tokenMessenger,
      abi: tokenMessengerV2Abi,
      functionName: "remoteTokenMessengers",
      args: [domain],
    });
    senders.set(domain, sender.toLowerCase());
    return sender.toLowerCase();
  };
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
      const { nonce, sourceDomain, sender, messageBody } = log.args;
      if (nonce === undefined || sourceDomain === undefined || sender === undefined) continue;
      const body = decodeCctpBurnBody(messageBody ?? "0x");
      const recipient = body && recipients.get(body.mintRecipient.toLowerCase() as `0x${string}`);
      if (!body || !recipient) continue;
      // Only a burn message from the TokenMessenger the messenger here accepts for that domain mints.
      if (sender.toLowerCase() !== (await senderOf(sourceDomain)) || BigInt(sender) === 0n) continue;
      const receipt = await chain.client.getTransactionReceipt({ hash: log.transactionHash });
      if (receipt.status !== "success") continue;
      const mint = mintOfMessage(receipt.logs, log, { ...contracts, recipient, burned: body.amount });
      if (!mint) continue;
      const block = await chain.client.getBlock({ blockNumber: receipt.blockNumber });
      const now = ctx.clock.now();
      const inserted = await ctx.db
        .insert(settlementMints)
        .values({
          id: newId("mnt", ctx.clock),
          chainId: chain.chainId,
          nonce: nonce.toLowerCase(),
          sourceDomain,
          depositor: `0x${body.messageSender.slice(-40)}`.toLowerCase(),
          recipient: recipient.toLowerCase(),
          hookData: body.hookData.toLowerCase(),
          amount: mint.amount,
          feeCollected: mint.feeCollected,
          txHash: log.transactionHash.toLowerCase(),
          logIndex: log.logIndex,
          blockNumber: log.blockNumber,
          mintedAt: new Date(Number(block.timestamp) * 1000),
          status: "found",
          foundAt: now,
          updatedAt: now,
        })
        .onConflictDoNothing()
        .returning({ id: settlementMints.id });
      found += inserted.length;
    }
    from = to + 1n;
    await moveCursor(ctx, chain.chainId, from);
  }
  return found;
}

async function moveCursor(ctx: SettlementServices, chainId: number, nextBlock: bigint) {
  const updatedAt = ctx.clock.now();
  await ctx.db
    .insert(settlementMintScans)
    .values({ chainId, nextBlock, updatedAt })
    .onConflictDoUpdate({ target: settlementMintScans.chainId, set: { nextBlock, updatedAt } });
}
