import { and, eq } from "drizzle-orm";
import { settlementTransactions } from "../../../schema";
import type { PaymentContext } from "./types";

/** The purpose a reverted payment is kept under once set aside, so the payment can be signed afresh. */
const setAsidePurpose = (purpose: string, id: string) => `${purpose}:reverted:${id}`;

/**
 * Sets aside an order's reverted payments (all of them, or one purpose's): kept, renamed, so the
 * payment signs a new transaction on its next look. A payment that did not revert is never set
 * aside: it may still be mined. Answers how many were.
 */
export async function setAsideReverted(
  ctx: PaymentContext,
  orderId: string,
  purpose?: string,
): Promise<number> {
  const reverted = (
    await ctx.db
      .select()
      .from(settlementTransactions)
      .where(
        and(
          eq(settlementTransactions.orderId, orderId),
          eq(settlementTransactions.status, "reverted"),
          ...(purpose === undefined ? [] : [eq(settlementTransactions.purpose, purpose)]),
        ),
      )
  ).filter((row) => !row.purpose.includes(":reverted:"));
  for (const row of reverted) {
    await ctx.db
      .update(settlementTransactions)
      .set({ purpose: setAsidePurpose(row.purpose, row.id), updatedAt: ctx.clock.now() })
      .where(and(eq(settlementTransactions.id, row.id), eq(settlementTransactions.purpose, row.purpose)));
  }
  return reverted.length;
}

/** How many reverted versions of an order's payment were set aside already. */
export async function revertedVersions(
  ctx: PaymentContext,
  orderId: string,
  purpose: string,
): Promise<number> {
  const rows = await ctx.db
    .select({ purpose: settlementTransactions.purpose })
    .from(settlementTransactions)
    .where(and(eq(settlementTransactions.orderId, orderId), eq(settlementTransactions.status, "reverted")));
  return rows.filter((row) => row.purpose.startsWith(`${purpose}:reverted:`)).length;
}
