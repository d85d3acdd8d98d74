import { and, eq } from "drizzle-orm";
import { settlementAccountLocks } from "../../../schema";
import type { Database } from "./database";

/**
 * Runs `work` in a transaction holding one signing account's lock on one chain (a row per chain and
 * address, locked FOR UPDATE): whoever signs and records that account's transactions holds it, so
 * two jobs never take one nonce, and a decision taken under it never interleaves with a signature.
 */
export async function withAccountLock<T>(
  db: Database,
  lock: { chainId: number; address: string },
  work: (tx: Database) => Promise<T>,
): Promise<T> {
  const key = { chainId: lock.chainId, address: lock.address.toLowerCase() };
  await db.insert(settlementAccountLocks).values(key).onConflictDoNothing();
  return db.transaction(async (tx) => {
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
