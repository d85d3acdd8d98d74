import { and, eq, max } from "drizzle-orm";
import { type Account, type Hex, keccak256 } from "viem";
import { settlementTransactions } from "../../schema";
import type { ConfiguredChain } from "../chain/registry";
import type { ServiceContext } from "../context";
import { isUniqueViolation } from "../db/errors";
import { newId } from "../ids";

export type TransactionOutcome = { hash: Hex; state: "pending" | "success" | "reverted" };

/** Where a test may stop a job dead, to prove that a retry neither loses nor repeats a payment. */
export type FaultPoint = "after-record" | "after-broadcast" | "after-confirm";
export interface FaultInjector {
  at(point: FaultPoint, purpose: string): void;
}

const MAX_NONCE_ATTEMPTS = 5;

/**
 * Sends one of an order's transactions at most once. The signed transaction is recorded before it
 * is broadcast; whoever comes later (a retried job, a duplicate delivery, the sweep) finds the
 * record and broadcasts the same bytes again if the chain has not seen them, then watches that
 * hash. A nonce is taken from the chain and the records together, and the database refuses a
 * nonce taken twice.
 */
export async function sendOnce(
  ctx: ServiceContext & { faults?: FaultInjector },
  input: {
    orderId: string;
    purpose: string;
    chain: ConfiguredChain;
    account: Account;
    to: Hex;
    data: Hex;
    value?: bigint;
  },
): Promise<TransactionOutcome> {
  const [recorded] = await ctx.db
    .select()
    .from(settlementTransactions)
    .where(
      and(
        eq(settlementTransactions.orderId, input.orderId),
        eq(settlementTransactions.purpose, input.purpose),
      ),
    );
  if (recorded)
    return observe(ctx, input.chain, input.purpose, recorded.hash as Hex, recorded.raw as Hex, recorded.id);

  const client = input.chain.client;
  const from = input.account.address;
  const gas = await client.estimateGas({
    account: from,
    to: input.to,
    data: input.data,
    value: input.value ?? 0n,
  });
  const fees = await client.estimateFeesPerGas();
  for (let attempt = 0; attempt < MAX_NONCE_ATTEMPTS; attempt++) {
    const nonce = await nextNonce(ctx, input.chain, from);
    if (!input.account.signTransaction) throw new Error("the settlement signer cannot sign transactions");
    const raw = await input.account.signTransaction({
      chainId: input.chain.chainId,
      type: "eip1559",
      to: input.to,
      data: input.data,
      value: input.value ?? 0n,
      nonce,
      gas: (gas * 12n) / 10n,
      maxFeePerGas: fees.maxFeePerGas,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
    });
    const hash = keccak256(raw);
    const now = ctx.clock.now();
    const id = newId("stx", ctx.clock);
    try {
      await ctx.db.insert(settlementTransactions).values({
        id,
        orderId: input.orderId,
        purpose: input.purpose,
        chainId: input.chain.chainId,
        fromAddress: from.toLowerCase(),
        nonce,
        hash,
        raw,
        status: "signed",
        createdAt: now,
        updatedAt: now,
      });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      // Another job recorded this purpose first (watch its transaction), or took this nonce (try the next).
      const [winner] = await ctx.db
        .select()
        .from(settlementTransactions)
        .where(
          and(
            eq(settlementTransactions.orderId, input.orderId),
            eq(settlementTransactions.purpose, input.purpose),
          ),
        );
      if (winner)
        return observe(ctx, input.chain, input.purpose, winner.hash as Hex, winner.raw as Hex, winner.id);
      continue;
    }
    ctx.faults?.at("after-record", input.purpose);
    return observe(ctx, input.chain, input.purpose, hash, raw, id);
  }
  throw new Error(
    `no free nonce for ${from} on chain ${input.chain.chainId} after ${MAX_NONCE_ATTEMPTS} attempts`,
  );
}

/** The chain's view of a recorded transaction; broadcasts it again while the chain has not seen it. */
async function observe(
  ctx: ServiceContext & { faults?: FaultInjector },
  chain: ConfiguredChain,
  purpose: string,
  hash: Hex,
  raw: Hex,
  id: string,
): Promise<TransactionOutcome> {
  const receipt = await chain.client.getTransactionReceipt({ hash }).catch(() => undefined);
  if (receipt) {
    const state = receipt.status === "success" ? "success" : "reverted";
    await ctx.db
      .update(settlementTransactions)
      .set({ status: state, updatedAt: ctx.clock.now() })
      .where(eq(settlementTransactions.id, id));
    return { hash, state };
  }
  const known = await chain.client.getTransaction({ hash }).catch(() => undefined);
  if (!known) {
    await chain.client.sendRawTransaction({ serializedTransaction: raw }).catch((error: unknown) => {
      // Already in the pool or already mined: the same bytes, so the same transaction.
      if (!/already known|nonce too low|already imported/i.test(String(error))) throw error;
    });
    ctx.faults?.at("after-broadcast", purpose);
    await ctx.db
      .update(settlementTransactions)
      .set({ status: "sent", updatedAt: ctx.clock.now() })
      .where(and(eq(settlementTransactions.id, id), eq(settlementTransactions.status, "signed")));
  }
  const mined = await chain.client.getTransactionReceipt({ hash }).catch(() => undefined);
  if (!mined) return { hash, state: "pending" };
  const state = mined.status === "success" ? "success" : "reverted";
  await ctx.db
    .update(settlementTransactions)
    .set({ status: state, updatedAt: ctx.clock.now() })
    .where(eq(settlementTransactions.id, id));
  return { hash, state };
}

async function nextNonce(ctx: ServiceContext, chain: ConfiguredChain, from: Hex): Promise<number> {
  const [onChain, [recorded]] = await Promise.all([
    chain.client.getTransactionCount({ address: from, blockTag: "pending" }),
    ctx.db
      .select({ highest: max(settlementTransactions.nonce) })
      .from(settlementTransactions)
      .where(
        and(
          eq(settlementTransactions.chainId, chain.chainId),
          eq(settlementTransactions.fromAddress, from.toLowerCase()),
        ),
      ),
  ]);
  const afterRecorded =
    recorded?.highest === null || recorded?.highest === undefined ? 0 : recorded.highest + 1;
  return Math.max(onChain, afterRecorded);
}
