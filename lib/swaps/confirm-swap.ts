import { and, eq, ne } from "drizzle-orm";
import { erc20Abi, type Hex, parseEventLogs, type TransactionReceipt } from "viem";
import { swapIntents } from "../../schema";
import { commitmentOf, SWAP_COMMITMENT_TAG } from "../../sdk/src/commitments";
import type { ConfiguredChain } from "../kernel/chain/registry";
import { isUniqueViolation } from "../kernel/db/errors";
import { ApiError } from "../kernel/errors/api-error";
import { describeError } from "../kernel/log";
import type { PartnerContext } from "../tenancy/caller";
import { recordEvents } from "../webhooks/outbox";
import { swapChain } from "./prepare-swap";
import { type SwapRow, type SwapView, swapView } from "./swap-view";

/**
 * Records a prepared swap as done, from its transaction: successful, with the chain's confirmations,
 * sent by the wallet to the prepared target (router or broker), carrying this intent's commitment
 * (so a look-alike intent never claims another's transaction) in exactly the prepared calldata,
 * mined by the intent's expiresAt (SWAP_EXPIRED), and showing the wallet paid amountIn of tokenIn
 * and received at least minAmountOut of tokenOut. The amounts recorded are the logs', not the
 * quote's. A hash confirms one swap (TX_ALREADY_USED within the organization); the same hash on the same intent answers the
 * recorded swap.
 */
export async function confirmSwap(ctx: PartnerContext, intentId: string, txHash: Hex): Promise<SwapView> {
  const intent = await ownIntent(ctx, intentId);
  const hash = txHash.toLowerCase();
  if (intent.txHash === hash) return swapView(intent);
  // Only the organization's own intents say "used": another's is verified, and refused, as any
  // transaction of another wallet or intent (issue 37, finding 1).
  const [other] = await ctx.db
    .select({ id: swapIntents.id })
    .from(swapIntents)
    .where(
      and(
        eq(swapIntents.txHash, hash),
        ne(swapIntents.id, intent.id),
        eq(swapIntents.organizationId, ctx.caller.organizationId),
      ),
    );
  if (other) throw new ApiError("TX_ALREADY_USED");
  if (intent.status === "confirmed") {
    throw new ApiError("INVALID_SWAP", { detail: "(the intent was confirmed with another transaction)" });
  }
  const chain = swapChain(ctx);
  const verified = await verifySwap(chain, intent, txHash, ctx.clock.now()).catch((error: unknown) => {
    if (error instanceof ApiError) throw error;
    ctx.log.warn("swap verification could not reach the chain", describeError(error));
    throw new ApiError("PROVIDER_UNAVAILABLE", { detail: `(${chain.name} did not answer)` });
  });
  const now = ctx.clock.now();
  try {
    const confirmed = await ctx.db.transaction(async (tx) => {
      const [row] = await tx
        .update(swapIntents)
        .set({
          status: "confirmed",
          txHash: hash,
          amountInSwapped: verified.amountIn,
          amountOutReceived: verified.amountOut,
          blockNumber: verified.blockNumber,
          confirmedAt: now,
        })
        .where(and(eq(swapIntents.id, intent.id), eq(swapIntents.status, "prepared")))
        .returning();
      if (!row) return undefined;
      await recordEvents(ctx, tx, [
        {
          organizationId: row.organizationId,
          integrationId: row.integrationId,
          type: "swap.confirmed",
          subjectId: row.id,
          data: swapView(row),
        },
      ]);
      return row;
    });
    if (!confirmed) return confirmSwap(ctx, intentId, txHash);
    return swapView(confirmed);
  } catch (error) {
    if (isUniqueViolation(error)) throw new ApiError("TX_ALREADY_USED");
    throw error;
  }
}

export async function ownIntent(ctx: PartnerContext, intentId: string): Promise<SwapRow> {
  const [intent] = await ctx.db
    .select()
    .from(swapIntents)
    .where(and(eq(swapIntents.id, intentId), eq(swapIntents.organizationId, ctx.caller.organizationId)));
  if (!intent) throw new ApiError("SWAP_NOT_FOUND");
  return intent;
}

/** How long a pending swap's confirm asks to be left before the next try (about a Celo block). */
const PENDING_RETRY_SECONDS = 5;
/** How far a chain's block times may lag the service's clock: an unmined hash is pending until then. */
const UNMINED_EXPIRY_GRACE_MS = 60_000;

async function verifySwap(chain: ConfiguredChain, intent: SwapRow, txHash: Hex, now: Date) {
  const { receipt, transaction } = await minedOf(chain, txHash, intent, now);
  const same = (a: string | null | undefined, b: string) => (a ?? "").toLowerCase() === b.toLowerCase();
  if (receipt.status !== "success") throw invalid("the transaction reverted");
  const latest = await chain.client.getBlockNumber();
  const confirmations = Number(latest - receipt.blockNumber + 1n);
  if (confirmations < chain.confirmations) {
    throw new ApiError("SWAP_PENDING_CONFIRMATIONS", {
      detail: `(${confirmations}/${chain.confirmations})`,
      retryAfterSeconds: PENDING_RETRY_SECONDS,
    });
  }
  if (!same(transaction.from, intent.wallet)) throw invalid("it was not sent by the wallet");
  if (!same(transaction.to, intent.target)) throw invalid("it was not sent to the prepared target");
  const commitment = commitmentOf(SWAP_COMMITMENT_TAG, intent.id).slice(2).toLowerCase();
  if (!transaction.input.toLowerCase().endsWith(commitment)) {
    throw invalid("it does not carry this intent's commitment (it executes another intent, or none)");
  }
  if (!same(transaction.input, intent.calldata)) throw invalid("its calldata is not the prepared calldata");
  const block = await chain.client.getBlock({ blockNumber: receipt.blockNumber });
  const minedAt = new Date(Number(block.timestamp) * 1000);
  // A block's time is a whole second: in time only if that whole second is before expiresAt.
  if (Number(block.timestamp) >= Math.floor(intent.expiresAt.getTime() / 1000)) {
    throw new ApiError("SWAP_EXPIRED", {
      detail: `(mined ${minedAt.toISOString()}, the intent expired ${intent.expiresAt.toISOString()})`,
    });
  }
  const path = intent.path;
  const tokenIn = path[0]?.assetIn ?? "";
  const tokenOut = path.at(-1)?.assetOut ?? "";
  const transfers = parseEventLogs({ abi: erc20Abi, eventName: "Transfer", logs: receipt.logs });
  const amountIn = transfers
    .filter((log) => same(log.address, tokenIn) && same(log.args.from, intent.wallet))
    .reduce((sum, log) => sum + log.args.value, 0n);
  const amountOut = transfers
    .filter((log) => same(log.address, tokenOut) && same(log.args.to, intent.wallet))
    .reduce((sum, log) => sum + log.args.value, 0n);
  if (amountIn !== intent.amountIn) throw invalid("the wallet did not pay the prepared amountIn");
  if (amountOut < intent.minAmountOut) throw invalid("the wallet received less than minAmountOut");
  return { amountIn, amountOut, blockNumber: receipt.blockNumber };
}

async function minedOf(chain: ConfiguredChain, txHash: Hex, intent: SwapRow, now: Date) {
  let receipt: TransactionReceipt | undefined;
  try {
    receipt = await chain.client.getTransactionReceipt({ hash: txHash });
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
  const transaction = await chain.client.getTransaction({ hash: txHash }).catch((error: unknown) => {
    if (isNotFound(error)) return undefined;
    throw error;
  });
  // A hash the node does not know may be one the wallet has just broadcast to another node: it is
  // pending like an unmined one, never INVALID_SWAP, which is for mined transactions that are not the
  // intent's (a retry can never mend those).
  if (!transaction || !receipt) {
    // Past the intent's expiry (and a minute for the chain's clock) no block can take it in time.
    if (now.getTime() >= intent.expiresAt.getTime() + UNMINED_EXPIRY_GRACE_MS) {
      throw new ApiError("SWAP_EXPIRED", {
        detail: `(not mined, and the intent expired ${intent.expiresAt.toISOString()})`,
      });
    }
    throw new ApiError("SWAP_PENDING_CONFIRMATIONS", {
      detail: transaction ? "(0)" : `(0: ${chain.name} does not know this transaction yet)`,
      retryAfterSeconds: PENDING_RETRY_SECONDS,
    });
  }
  return { receipt, transaction };
}

function isNotFound(error: unknown): boolean {
  return error instanceof Error && /NotFound/.test(error.name);
}

function invalid(check: string): ApiError {
  return new ApiError("INVALID_SWAP", { detail: `(check failed: ${check})` });
}
