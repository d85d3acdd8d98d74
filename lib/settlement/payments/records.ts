import { and, asc, eq, inArray, isNull, notInArray } from "drizzle-orm";
import type { Account } from "viem";
import {
  settlementTransactions,
  type TransactionStatus,
  UNMINED_TRANSACTION_STATUSES,
} from "../../../schema";
import type { ConfiguredChain } from "../../kernel/chain/registry";
import type { Database } from "../../kernel/db/database";
import { noteOnTimeline } from "../progress/state";
import type { PaymentContext, TransactionRow } from "./types";

/** Versions that will never be mined: dropped (nonce taken), orphaned (their chain was reset). */
const SETTLED_ASIDE = new Set(["dropped", "orphaned"]);

/** The payments of one order, or of none (the account's own, as an allowance top-up). */
function ownedBy(orderId: string | null) {
  return orderId === null
    ? isNull(settlementTransactions.orderId)
    : eq(settlementTransactions.orderId, orderId);
}

export async function liveVersions(
  db: Database,
  orderId: string | null,
  purpose: string,
): Promise<TransactionRow[]> {
  const rows = await db
    .select()
    .from(settlementTransactions)
    .where(and(ownedBy(orderId), eq(settlementTransactions.purpose, purpose)))
    .orderBy(asc(settlementTransactions.createdAt));
  // The versions at the live one's nonce (a replacement keeps its nonce); dropped ones never mine.
  const live = rows.find((row) => !SETTLED_ASIDE.has(row.status) && row.status !== "replaced");
  if (!live) return [];
  return rows.filter((row) => row.nonce === live.nonce && !SETTLED_ASIDE.has(row.status));
}

/** The account's transactions on the chain that may still be mined. */
function unminedOf(chain: ConfiguredChain, account: Account) {
  return and(
    eq(settlementTransactions.chainId, chain.chainId),
    eq(settlementTransactions.fromAddress, account.address.toLowerCase()),
    inArray(settlementTransactions.status, [...UNMINED_TRANSACTION_STATUSES]),
  );
}

export async function unminedRows(
  db: Database,
  chain: ConfiguredChain,
  account: Account,
): Promise<TransactionRow[]> {
  return db
    .select()
    .from(settlementTransactions)
    .where(unminedOf(chain, account))
    .orderBy(asc(settlementTransactions.nonce), asc(settlementTransactions.createdAt));
}

/**
 * Every version of one payment as recorded now: the same nonce, order and purpose, whatever another
 * job did to them since `version` was read. That is its fee replacements and its cancellation (a
 * transfer of nothing, other calldata), which share the nonce: any of them may be the one mined.
 */
export async function versionsOf(
  db: Database,
  chain: ConfiguredChain,
  account: Account,
  version: TransactionRow,
): Promise<TransactionRow[]> {
  return db
    .select()
    .from(settlementTransactions)
    .where(
      and(
        eq(settlementTransactions.chainId, chain.chainId),
        eq(settlementTransactions.fromAddress, account.address.toLowerCase()),
        eq(settlementTransactions.nonce, version.nonce),
        ownedBy(version.orderId),
        eq(settlementTransactions.purpose, version.purpose),
        notInArray(settlementTransactions.status, ["orphaned"]),
      ),
    )
    .orderBy(asc(settlementTransactions.createdAt));
}

export function liveOf(versions: TransactionRow[]): TransactionRow | undefined {
  return versions.find((row) => row.status === "signed" || row.status === "sent");
}

/** Settles a nonce on the version mined (renamed to `purpose` when given: a cancellation kept apart). */
export async function settle(
  ctx: PaymentContext,
  versions: TransactionRow[],
  mined: TransactionRow,
  state: "success" | "reverted",
  purpose?: string,
): Promise<void> {
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    // The others at this nonce can never be mined now; dropped first, so the live indexes hold.
    const others = versions.filter((row) => row.id !== mined.id).map((row) => row.id);
    if (others.length > 0) {
      await tx
        .update(settlementTransactions)
        .set({ status: "dropped", updatedAt: now })
        .where(inArray(settlementTransactions.id, others));
    }
    await tx
      .update(settlementTransactions)
      .set({ status: state, updatedAt: now, ...(purpose ? { purpose } : {}) })
      .where(eq(settlementTransactions.id, mined.id));
  });
}

export async function dropAll(
  ctx: PaymentContext,
  versions: TransactionRow[],
  reason: string,
): Promise<void> {
  const now = ctx.clock.now();
  const dropped = await ctx.db
    .update(settlementTransactions)
    .set({ status: "dropped", updatedAt: now })
    .where(
      and(
        inArray(
          settlementTransactions.id,
          versions.map((row) => row.id),
        ),
        inArray(settlementTransactions.status, [...UNMINED_TRANSACTION_STATUSES]),
      ),
    )
    .returning({ id: settlementTransactions.id });
  const [first] = versions;
  if (dropped.length === 0 || !first) return;
  ctx.log.warn("settlement transaction dropped; the payment will be signed again", {
    orderId: first.orderId,
    purpose: first.purpose,
    nonce: first.nonce,
    reason,
  });
  if (!first.orderId) return;
  await noteOnTimeline(ctx, first.orderId, "PAYMENT_RESIGNED", {
    purpose: first.purpose,
    nonce: first.nonce,
    droppedHashes: versions.map((row) => row.hash),
    reason,
  });
}

export async function setStatus(
  ctx: PaymentContext,
  row: TransactionRow,
  status: TransactionStatus,
  from: TransactionStatus[],
): Promise<void> {
  await ctx.db
    .update(settlementTransactions)
    .set({ status, updatedAt: ctx.clock.now() })
    .where(and(eq(settlementTransactions.id, row.id), inArray(settlementTransactions.status, from)));
}
