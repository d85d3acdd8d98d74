import { and, eq } from "drizzle-orm";
import type { Account } from "viem";
import { settlementAccountLocks } from "../../../schema";
import type { ConfiguredChain } from "../../kernel/chain/registry";
import type { Database } from "../../kernel/db/database";
import type { PaymentContext } from "./types";

/**
 * Runs `work` in a transaction holding the settlement account's lock on the chain: what signs and
 * records the account's payments holds it too, so a decision taken under it (an order's return)
 * and a payment being signed never interleave.
 */
export async function withAccountLock<T>(
  ctx: PaymentContext,
  chain: ConfiguredChain,
  account: Account,
  work: (tx: Database) => Promise<T>,
): Promise<T> {
  const key = { chainId: chain.chainId, address: account.address.toLowerCase() };
  await ctx.db.insert(settlementAccountLocks).values(key).onConflictDoNothing();
  return ctx.db.transaction(async (tx) => {
    await tx
      .select()
      .from(settlementAccountLocks)
      .where(
        and(eq(settlementAccountLocks.chainId, key.chainId), eq(settlementAccountLocks.address, key.address)),
      )
      .for("update");
    return work(tx as unknown as Database);
  });
}
