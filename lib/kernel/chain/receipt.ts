import { type Hex, type PublicClient, type TransactionReceipt, TransactionReceiptNotFoundError } from "viem";

/** The receipt of a mined transaction, or undefined while the chain has none (unknown or not mined). */
export async function receiptOrUndefined(
  client: PublicClient,
  hash: Hex,
): Promise<TransactionReceipt | undefined> {
  try {
    return await client.getTransactionReceipt({ hash });
  } catch (error) {
    if (error instanceof TransactionReceiptNotFoundError) return undefined;
    throw error;
  }
}

/** Whether `delayMs` has passed since the block's timestamp, by the caller's clock. */
export async function delayElapsed(
  client: PublicClient,
  blockNumber: bigint,
  delayMs: number,
  now: Date,
): Promise<boolean> {
  const block = await client.getBlock({ blockNumber });
  return now.getTime() >= Number(block.timestamp) * 1000 + delayMs;
}
