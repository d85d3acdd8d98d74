import type { Account } from "viem";
import type { ConfiguredChain } from "../../kernel/chain/registry";
import { withAccountLock as withSigningLock } from "../../kernel/db/account-lock";
import type { Database } from "../../kernel/db/database";
import type { PaymentContext } from "./types";

/**
 * Runs `work` in a transaction holding the settlement account's lock on the chain: what signs and
 * records the account's payments holds it too, so a decision taken under it (an order's return)
 * and a payment being signed never interleave.
 */
export function withAccountLock<T>(
  ctx: PaymentContext,
  chain: ConfiguredChain,
  account: Account,
  work: (tx: Database) => Promise<T>,
): Promise<T> {
  return withSigningLock(ctx.db, { chainId: chain.chainId, address: account.address }, work);
}
