import { and, asc, eq, gt, gte, inArray } from "drizzle-orm";
import { brebPayoutEvents, brebPayouts } from "../../schema";
import { assertWalletIfAnonymous } from "../identity/wallet-sessions";
import { pageOf } from "../kernel/db/paging";
import type { PartnerContext } from "../tenancy/caller";
import { ownPayout } from "./confirm-payout";
import { loadPayoutView } from "./payout-records";
import { type PayoutStatus, type PayoutView, payoutView } from "./payout-view";

export const PAYOUTS_PAGE_LIMIT = 500;
export const PAYOUTS_DEFAULT_LIMIT = 100;

/** A payout of the organization; without a key (the miniapp), only with its user's wallet session. */
export async function readPayout(
  ctx: PartnerContext,
  payoutId: string,
  walletSession?: string | undefined,
): Promise<PayoutView> {
  const payout = await ownPayout(ctx, payoutId);
  await assertWalletIfAnonymous(ctx, walletSession, payout.userAddress);
  return loadPayoutView(ctx.db, payout);
}

/**
 * The organization's payouts oldest first, a page at a time (`nextCursor` null on the last); without
 * a key (the miniapp), only one user's, with that user's wallet session.
 */
export async function listPayouts(
  ctx: PartnerContext,
  query: {
    userAddress?: string;
    status?: PayoutStatus;
    since?: Date;
    limit: number;
    cursor?: string;
    walletSession?: string | undefined;
  },
): Promise<{ payouts: PayoutView[]; nextCursor: string | null }> {
  await assertWalletIfAnonymous(ctx, query.walletSession, query.userAddress);
  const rows = await ctx.db
    .select()
    .from(brebPayouts)
    .where(
      and(
        eq(brebPayouts.organizationId, ctx.caller.organizationId),
        query.userAddress ? eq(brebPayouts.userAddress, query.userAddress) : undefined,
        query.status ? eq(brebPayouts.status, query.status) : undefined,
        query.since ? gte(brebPayouts.createdAt, query.since) : undefined,
        query.cursor ? gt(brebPayouts.id, query.cursor) : undefined,
      ),
    )
    .orderBy(asc(brebPayouts.id))
    .limit(query.limit + 1);
  const { page, nextCursor } = pageOf(rows, query.limit, (row) => row.id);
  const events =
    page.length === 0
      ? []
      : await ctx.db
          .select()
          .from(brebPayoutEvents)
          .where(
            inArray(
              brebPayoutEvents.payoutId,
              page.map((row) => row.id),
            ),
          );
  return {
    payouts: page.map((row) =>
      payoutView(
        row,
        events.filter((event) => event.payoutId === row.id),
      ),
    ),
    nextCursor,
  };
}
