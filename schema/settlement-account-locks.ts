import { integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";

/**
 * One row per (chain, settlement account): locked FOR UPDATE while the account's next transaction
 * is chosen, estimated and signed, so the account's transactions on a chain go out one at a time
 * and in nonce order, whatever number of jobs run at once.
 */
export const settlementAccountLocks = pgTable(
  "settlement_account_locks",
  {
    chainId: integer("chain_id").notNull(),
    address: text("address").notNull(),
  },
  (table) => [primaryKey({ columns: [table.chainId, table.address] })],
);
